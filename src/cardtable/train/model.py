"""The network in PyTorch, for training: the same layers and names as the numpy network that plays it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from cardtable.agents.learned import Network


class PolicyValueNet(nn.Module):
    """A multilayer perceptron: ReLU trunk, policy logits over the action index, a ``tanh`` value."""

    def __init__(self, inputs: int, actions: int, hidden: Sequence[int]) -> None:
        super().__init__()
        widths = [inputs, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:], strict=False))
        self.policy = nn.Linear(widths[-1], actions)
        self.value = nn.Linear(widths[-1], 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy logits ``(batch, actions)`` and values ``(batch,)``."""
        h = x
        for layer in self.trunk:
            h = torch.relu(layer(h))
        return self.policy(h), torch.tanh(self.value(h)).squeeze(-1)


def to_network(model: PolicyValueNet, meta: Mapping[str, Any] | None = None) -> Network:
    """The numpy network with ``model``'s weights (float32 copies)."""
    arrays: dict[str, Any] = {}
    for i, layer in enumerate(model.trunk):
        assert isinstance(layer, nn.Linear)
        arrays[f"trunk{i}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"trunk{i}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    for name, layer in (("policy", model.policy), ("value", model.value)):
        arrays[f"{name}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"{name}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    return Network.from_arrays(arrays, meta)


def losses(model: PolicyValueNet, obs: torch.Tensor, legal: torch.Tensor, target: torch.Tensor,
           value: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The policy loss (cross-entropy of the visit shares against the softmax over the legal actions) and the
    value loss (mean squared error against the result)."""
    logits, v = model(obs)
    valid = legal >= 0
    picked = torch.gather(logits, 1, legal.clamp(min=0))
    picked = picked.masked_fill(~valid, float("-inf"))
    logp = torch.log_softmax(picked, dim=1).masked_fill(~valid, 0.0)
    policy_loss = -(target * logp).sum(dim=1).mean()
    value_loss = torch.mean((v - value) ** 2)
    return policy_loss, value_loss

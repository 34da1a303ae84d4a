"""What the API's routes take: the running server's services."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from ..services import Services, services_of

ServicesDep = Annotated[Services, Depends(services_of)]
"""The services of the app a request came to."""

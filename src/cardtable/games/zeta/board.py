"""Board geometry as precomputed int bitmasks: squares, neighbourhoods and lines (rulebook §2.1)."""

from __future__ import annotations

from functools import lru_cache

FILES = "abcdef"


class Geometry:
    """Every precomputed table of one board size; square ``s = rank_index * width + file_index``."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        n = self.size = width * height
        self.all = (1 << n) - 1
        self.names = [f"{FILES[s % width]}{s // width + 1}" for s in range(n)]
        self.index = {name: s for s, name in enumerate(self.names)}

        def at(f: int, r: int) -> int:
            return 1 << (r * width + f) if 0 <= f < width and 0 <= r < height else 0

        def coords(s: int) -> tuple[int, int]:
            return s % width, s // width

        self.vertical: list[int] = []   # 上下: same file, rank +-1 (ZETA-I27)
        self.horizontal: list[int] = []  # 左右: same rank, file +-1
        self.n4: list[int] = []
        self.d4: list[int] = []
        self.n8: list[int] = []
        self.rook_line: list[int] = []   # same rank or file (circle_reach=line)
        self.diag_line: list[int] = []   # same diagonal or anti-diagonal (circle_reach=line)
        for s in range(n):
            f, r = coords(s)
            v = at(f, r - 1) | at(f, r + 1)
            h = at(f - 1, r) | at(f + 1, r)
            d = at(f - 1, r - 1) | at(f + 1, r - 1) | at(f - 1, r + 1) | at(f + 1, r + 1)
            self.vertical.append(v)
            self.horizontal.append(h)
            self.n4.append(v | h)
            self.d4.append(d)
            self.n8.append(v | h | d)
            rook = diag = 0
            for t in range(n):
                g, q = coords(t)
                if t != s and (g == f or q == r):
                    rook |= 1 << t
                if t != s and abs(g - f) == abs(q - r):
                    diag |= 1 << t
            self.rook_line.append(rook)
            self.diag_line.append(diag)

        self.ranks = [sum(1 << (r * width + f) for f in range(width)) for r in range(height)]
        self.files = [sum(1 << (r * width + f) for r in range(height)) for f in range(width)]
        self.bottom = self.ranks[0]
        cf, cr = width // 2, height // 2
        self.center = at(cf - 1, cr - 1) | at(cf, cr - 1) | at(cf - 1, cr) | at(cf, cr)  # ZETA-I44

        # Every window of four consecutive squares in the four directions (ZETA-R20).
        windows: list[int] = []
        extensions: list[int] = []  # the squares just before and after each window (for exact-4 runs)
        for s in range(n):
            f, r = coords(s)
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                m = 0
                for k in range(4):
                    b = at(f + df * k, r + dr * k)
                    if not b:
                        m = 0
                        break
                    m |= b
                if m:
                    windows.append(m)
                    extensions.append(at(f - df, r - dr) | at(f + df * 4, r + dr * 4))
        self.windows = windows
        self.window_pairs = list(zip(windows, extensions, strict=True))
        self.windows_through: list[tuple[int, ...]] = [tuple(w for w in windows if w >> s & 1) for s in range(n)]
        self.directions = ((1, 0), (0, 1), (1, 1), (1, -1))

        # Bit-position tables: squares of a mask by 12-bit chunks.
        self.chunks = self._chunks = [tuple(tuple(base + i for i in range(12) if m >> i & 1) for m in range(4096))
                        for base in range(0, max(n, 1), 12)]

    def squares(self, mask: int) -> tuple[int, ...]:
        """The squares of a mask, ascending."""
        out: tuple[int, ...] = ()
        for chunk in self._chunks:
            if not mask:
                break
            part = mask & 4095
            if part:
                out += chunk[part]
            mask >>= 12
        return out

    def run_lengths(self, own: int, s: int) -> list[int]:
        """Length of the maximal run of ``own`` squares through ``s`` in each of the four directions."""
        f0, r0 = s % self.width, s // self.width
        out = []
        for df, dr in self.directions:
            length = 1
            for sign in (1, -1):
                f, r = f0 + df * sign, r0 + dr * sign
                while 0 <= f < self.width and 0 <= r < self.height and own >> (r * self.width + f) & 1:
                    length += 1
                    f += df * sign
                    r += dr * sign
            out.append(length)
        return out


@lru_cache(maxsize=8)
def geometry(width: int, height: int) -> Geometry:
    """The (cached) geometry of a board size."""
    return Geometry(width, height)

"""One module per command (after asv/commands): each exposes a function callable
from Python with an options dataclass, and the click command that wraps it."""

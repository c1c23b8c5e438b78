"""Actions shared by every game: passing."""

__all__ = ["PASS", "Pass"]


class Pass:
    """The pass action (declining to play on a trick); use the singleton ``PASS``.

    Its protocol form is ``["PASS", "PASS", "PASS"]``.
    """

    __slots__ = ()
    _instance = None

    def __new__(cls) -> "Pass":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> str:
        return "PASS"

    def to_protocol(self) -> list[str]:
        return ["PASS", "PASS", "PASS"]


#: the pass action of every game
PASS = Pass()

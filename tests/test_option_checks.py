"""One check of a real-valued option (``chupai.core.validate.check_number``) serves every
bot, search, client and server option that takes seconds or a constant; the int options
beside them go through ``check_int`` (a negative seed is refused, not wrapped), in every
game where the option is the game's state's."""
import math

import numpy as np
import pytest

from chupai.core.validate import check_number, check_optional_number
from chupai.evaluation.perft import perft
from chupai.registry import GAMES
from chupai.guandan.protocol.client import Client
from chupai.guandan.protocol.openguandan import OpenGuanDanClient
from chupai.guandan.protocol.server import ServerConfig
from chupai.players.search.best import BestBot
from chupai.players.search.ismcts import ISMCTS
from chupai.players.search.timed import TimedMonteCarloBot


def test_check_number_takes_finite_reals_and_names_what_it_refuses():
    assert check_number(np.float32(0.5), "z", 0) == 0.5 and type(check_number(2, "z", 0)) is float
    assert check_number(0, "z", 0) == 0.0
    for bad in ("1", None, True, np.bool_(False), [1.0]):
        with pytest.raises(TypeError, match="^z must be a number, not"):
            check_number(bad, "z", 0)
    for bad in (-0.5, math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="^z must be a finite number >= 0, not"):
            check_number(bad, "z", 0)
    with pytest.raises(ValueError, match="^seconds must be a finite number > 0, not 0"):
        check_number(0, "seconds", 0, above=True)
    assert check_optional_number(None, "drop", 0) is None
    with pytest.raises(TypeError, match="^drop must be a number or None, not 'x'"):
        check_optional_number("x", "drop", 0)


@pytest.mark.parametrize("make, name, bad, error", [
    (lambda v: BestBot(seconds=v), "seconds", 0.0, ValueError),
    (lambda v: BestBot(z=v), "z", math.nan, ValueError),
    (lambda v: BestBot(drop=v), "drop", "1", TypeError),
    (lambda v: ISMCTS(exploration=v), "exploration", "x", TypeError),
    (lambda v: ISMCTS(iterations_per_world=v), "iterations_per_world", None, TypeError),
    (lambda v: TimedMonteCarloBot(v), "seconds", math.inf, ValueError),
    (lambda v: Client("ws://127.0.0.1:1/game/me", timeout=v), "timeout", "5", TypeError),
    (lambda v: Client("ws://127.0.0.1:1/game/me", reconnect=v), "reconnect", -1, ValueError),
    (lambda v: ServerConfig(pace=v), "pace", "0", TypeError),
    (lambda v: ServerConfig(reconnect_grace=v), "reconnect_grace", math.nan, ValueError),
    (lambda v: ServerConfig(port=v), "port", "80", TypeError),
    (lambda v: OpenGuanDanClient("ws://127.0.0.1:1/", seat=v), "seat", "1", TypeError),
])
def test_options_are_refused_by_name(make, name, bad, error):
    with pytest.raises(error, match=f"^{name} must be"):
        make(bad)


@pytest.mark.parametrize("game", list(GAMES))
def test_search_seed_and_perft_depth_are_refused_by_name_in_every_game(game):
    state = GAMES[game].new(1)
    before = state.history
    for make, name, bad, error in ((lambda v: ISMCTS().search(state, iterations=1, seed=v), "seed", -1, ValueError),
                                   (lambda v: ISMCTS().search(state, iterations=1, seed=v), "seed", 2**64, ValueError),
                                   (lambda v: ISMCTS().search(state, iterations=1, seed=v), "seed", 1.5, TypeError),
                                   (lambda v: perft(state, v), "depth", -1, ValueError),
                                   (lambda v: perft(state, v), "depth", "2", TypeError)):
        with pytest.raises(error, match=f"^{name} must be"):
            make(bad)
    assert state.history == before

# One Chinese Ten deal as a C struct, declared apart from the engine that runs it so
# that the playout policies (chupai.chinese_ten._policies) and the other compiled modules
# read it without importing the engine.
from libc.stdint cimport int16_t, uint8_t
from chupai.core.records cimport mask_t
from chupai.engine.base cimport trick_t
from chupai.chinese_ten._movegen cimport CT_DECK

cdef enum:
    CT_MAX_PLAYERS = 4
    CT_NOBODY = -1
    CT_NO_CARD = -1
    CT_PHASE_PLAY = 0            # the current player plays a card from the hand
    CT_PHASE_TURN = 1            # the current player chooses the turned card's capture
    CT_PHASE_OVER = 2
    CT_BONUS_POINTS = 10         # red five bonus, from each other player

ctypedef struct ct_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    mask_t hand[CT_MAX_PLAYERS]
    mask_t pile[CT_MAX_PLAYERS]  # the cards each player has captured
    mask_t layout
    mask_t last_captured         # what the last turned stock card captured
    int last_turned              # the last turned stock card (CT_NO_CARD before any)
    int flags                    # option flags (chupai.chinese_ten.rules)
    int dealer
    int phase                    # CT_PHASE_*
    int turned                   # the turned card awaiting its capture choice, or CT_NO_CARD
    int bonus                    # who captured a red 5 with the other red 5, or CT_NOBODY
    int nstock
    uint8_t stock[CT_DECK]       # stock[nstock - 1] is the top card
    int16_t points[CT_DECK]      # the points of each card in this variant and table size
    int hand_size                # a fresh deal's sizes (chupai.chinese_ten.rules.deal_sizes)
    int layout_size
    int first                    # who plays first in a fresh deal

"""Crime Lords: why an action may not be taken now (pure checks, each sentence once).

Every check returns ``None`` when the action is allowed or the sentence that tells the
player why not; the handlers (``turn``, ``fight``) raise it with ``require_ok`` and
``moves`` shows it beside a move it offers but does not allow, so the two cannot say
different things (Illegal's ``legality.py`` is the model).
"""

from __future__ import annotations

from companion.games.base import IllegalAction
from companion.games.crime_lords.mob import places_for
from companion.games.crime_lords.state import CENTER_FILL, State


def require_ok(reason: str | None) -> None:
    """Raise ``IllegalAction(reason)`` unless ``reason`` is None."""
    if reason is not None:
        raise IllegalAction(reason)


def attack_reason(state: State) -> str | None:
    """An attack in progress comes first (no other attack, no turn's action)."""
    if state.attack is not None:
        return "Finish the attack in progress first (roll or back out)."
    return None


def offer_reason(state: State) -> str | None:
    """A Crook offered to another Mob keeps the turn from ending and other gifts waiting."""
    if state.offer is not None:
        return "A Crook offered to another Mob is waiting for an answer."
    return None


def pass_reason(state: State) -> str | None:
    """The pass bonus is for a turn without any action (its end otherwise)."""
    if state.acted:
        return "You already took an action this turn: end your turn instead."
    return offer_reason(state)


def leave_reason(state: State, seat: int) -> str | None:
    """A player in a Crook offer calls it off before leaving."""
    if state.offer is not None and seat in state.offer[:2]:
        return "Call off the Crook offer first."
    return None


def token_reason(state: State, card: str, token: bool) -> str | None:
    """A card without its Action Token cannot spend it."""
    return None if token else f"{state.label(card)} has no Action Token left this turn."


def money_reason(state: State, seat: int, amount: int) -> str | None:
    """Nobody spends or gives more money than he has."""
    if amount > state.mobs[seat].money:
        return "You do not have that much money."
    return None


def retire_reason(state: State, seat: int, price: int) -> str | None:
    """Retirement costs twice the Boss's total Power, paid at once."""
    if state.mobs[seat].money < price:
        return f"The going-away present is {price} G: you do not have it."
    return None


def offered_reason(state: State) -> str | None:
    """An answer to a Crook offer needs an offer."""
    return "No Crook is being offered." if state.offer is None else None


def special_reason(state: State, seat: int, card: str) -> str | None:
    """Only one's own Specials are played or given."""
    if card not in state.mobs[seat].specials:
        return "That is not one of your Specials."
    return None


def player_reason(state: State, seat: int) -> str | None:
    """A seat named in an action must be one of the table's."""
    if not 0 <= seat < len(state.seats):
        return "There is no such player at this table."
    return None


def war_turn_reason(state: State, seat: int) -> str | None:
    """In a Gang War only the seat whose war turn it is Hits or passes."""
    war = state.war
    if war is not None and seat != war.turn:
        return f"It is {state.seats[war.turn]}'s Gang War turn."
    return None


def boss_reason(state: State, seat: int) -> str | None:
    """A Mob without a Boss names one before it collects."""
    return "Choose a new Boss first." if state.mobs[seat].boss is None else None


def drop_reason(state: State, seat: int, card: str) -> str | None:
    """Nobody drops his Boss. In the setup a Crook who fits under nobody of his Mob goes
    to the center ("he remains uncontrolled"); one who has a place, or could have one,
    is placed instead (docs/rules/crime_lords.md, Setup)."""
    mob = state.mobs[seat]
    if card == mob.boss:
        return "You cannot drop your Boss."
    if state.phase != "setup":
        return None
    name = state.label(card)
    if mob.boss is None:
        return "Choose your Boss first: then place the others around him."
    crook = mob.crook(card)
    if crook is not None and crook.superior is not None:
        return (f"{name} has a place in your Mob: in the setup only a Crook who fits "
                "nowhere goes to the center.")
    unders = places_for(state, seat, card)
    if unders:
        return f"{name} can go under {state.label(unders[0])}: place him instead."
    return None

def draws_owed(state: State) -> int:
    """How many more cards the player on turn must draw: at least one, then until four
    cards lie in the center, then the Downtowners' extra card (0 with ``draw_rule``
    "free", once the deck is used up, or before income is collected)."""
    if (state.options.draw_rule == "free" or state.deck_empty or state.phase != "turn"
            or state.war is not None or state.step != "actions"):
        return 0
    base = 0 if state.filled else max(1 - state.drawn, CENTER_FILL - len(state.center))
    return max(0, base) + max(0, state.mobs[state.turn].extra_draws - state.extra_drawn)


def turn_reason(state: State, seat: int) -> str | None:
    """The turn's steps and actions are the player on turn's."""
    if seat != state.turn:
        return f"It is {state.seats[state.turn]}'s turn, not {state.seats[seat]}'s."
    return None


def collect_reason(state: State) -> str | None:
    """Income and the pay-off come first in a turn."""
    if state.step != "actions":
        return "Collect income and pay off the gang first."
    return None


def pending_reason(state: State) -> str | None:
    """A drawn card waiting for its stats holds the turn."""
    if state.pending is not None:
        return "Enter the stats of the card just drawn first (read them off the card)."
    return None


def draws_reason(state: State) -> str | None:
    """The turn's draws come before its actions and its end (``draw_rule`` "count")."""
    owed = draws_owed(state)
    if owed:
        return (f"{state.seats[state.turn]} must first draw {owed} more card"
                f"{'s' if owed > 1 else ''} (or say the deck is used up).")
    return None


def drawn_all_reason(state: State) -> str | None:
    """No draw beyond the turn's count (``draw_rule`` "count")."""
    if state.options.draw_rule == "free" or state.deck_empty or draws_owed(state) > 0:
        return None
    return f"{state.seats[state.turn]} has drawn every card of this turn."


def share_reason(state: State) -> str | None:
    """The Mobs one Racket short answer before the next turn's income."""
    if state.share is None:
        return None
    waiting = [state.seats[x] for x in state.share[0] if x not in state.share[1]]
    return f"{' and '.join(waiting)} must first say whether they share the win."

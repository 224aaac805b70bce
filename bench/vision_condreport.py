"""The conditions bench's report in words (``bench.vision_conditions``: ``run_conditions``).

``print_conditions`` prints, per split, each condition's cards read and what the
condition adds (the tags under the glare and the check's flags; the knocks noticed and
followed; the pile's growths), what the real Nasty 7 table made of them (pile events,
cards booked twice, questions unanswered, false penalties, the clock off for glare),
every card a camera could have read (``_print_readable``: the truth's readable cards, and
each one missed with why) and the decoder's cost. Printing only: nothing is computed here.
"""

from __future__ import annotations

from typing import Any

from bench.vision_readable import READABLE_FRAMES

__all__ = ["print_conditions", "which_videos"]


def print_conditions(report: dict[str, Any]) -> None:
    """The conditions' lines of the report (``run_conditions``)."""
    for split, r in report.items():
        tag = "HELD-APART" if split == "cond-held" else "tuning"
        print(f"\n{tag} conditions ({split}, {which_videos(r)}), every frame through the pipeline, "
              "the check and a real Nasty 7 table (ticked every frame):")
        for name, c in r["conditions"].items():
            rate = f"{c['read'] / c['cards']:.1%}" if c["cards"] else "-"
            line = (f"  {name:16} {c['videos']} videos, cards read (exactly one TagSeen) "
                    f"{c['read']}/{c['cards']} {rate}")
            if name == "glare":
                line += (f"; tags under the glare {c['under_glare']}, read "
                         f"{c['under_glare_read']}, flagged by the check "
                         f"{c['under_glare_flagged']}; glare verdict {c['glare_level']}")
            if name == "bump":
                line += (f"; knocks {c['bumps']}, noticed {c['noticed']}, followed "
                         f"{c['followed']} (pile corners off by {c['follow_error_px']} px), "
                         f"reported to the host as moved {c['reported_moved']}")
            if name.startswith("beside"):
                line += (f"; growths {c['growths']}, into the seat's area "
                         f"{c['growths_into_seat']} (goal 0)")
            print(line)
        print(f"  {'table:':16} {'pile events right':>18} {'booked twice':>12} "
              f"{'unanswered':>10} {'false penalties':>15} {'growths into a zone':>19} "
              f"{'unread landings asked':>21} {'invented':>8}"
              "   (goals: 99.5 %, 0, 0, 0, 0, -, 0)")
        for name, c in r["conditions"].items():
            t = c["table"]
            share = f"{t['right'] / t['cards']:.1%}" if t["cards"] else "-"
            right = f"{t['right']}/{t['cards']} {share}"
            print(f"  {name:16} {right:>18} {t['booked_twice']:>12} "
                  f"{t['unanswered']:>4} of {t['questions']:<3} "
                  f"{t['false_penalties']:>6} of {t['penalties']:<6} "
                  f"{t['growths_into_other']:>19} {t['landed_unread']:>21} {t['invented']:>8}"
                  f"   (refused {t['refused']}; unread cards named by the host "
                  f"{t['unread_booked']}, answered by the camera's later read "
                  f"{t['read_answered']} (with a later card {t['wrong_answers']}), "
                  f"asked of cards read later {t['read_later']}; the clock off for "
                  f"glare over the pile {t['blind_s']:.1f} s, true hesitations due then "
                  f"{t['hesitations_off']})")
        _print_readable(r["conditions"])
        k = r["cost"]
        if k["zxing_ms"]["median"] is None:
            print("  decoder cost: not timed in this run")
            continue
        pi = ", ".join(f"{n} {v} ms" for n, v in k["pi_p95_ms"].items())
        print(f"  decoder cost, {k['frames']} frames, CPU ms a frame: shipped (told what the "
              f"last frame read) median {k['shipped_ms']['median']} p95 "
              f"{k['shipped_ms']['p95']}; zxing-cpp alone median {k['zxing_ms']['median']} "
              f"p95 {k['zxing_ms']['p95']}; ratio median {k['median_ratio']}x (goal 1.0), "
              f"p95 {k['p95_ratio']}x (goal 1.3); shipped p95 on {pi}")


def which_videos(split: dict[str, Any]) -> str:
    """The videos a split ran, in words: "videos 10-19 of each condition"."""
    first = int(split.get("first", 0))
    videos = int(split.get("videos", 0)) or max(
        (c["videos"] for c in split["conditions"].values()), default=0)
    if videos == 1:
        return f"video {first} of each condition"
    return f"videos {first}-{first + videos - 1} of each condition"


def _print_readable(conditions: dict[str, Any]) -> None:
    """Per condition, what the table made of every card a camera could have read, and
    each card it missed without asking, with why."""
    print(f"  {'readable cards:':16} {'exactly one pile event':>24} {'booked twice':>12} "
          f"{'missed':>6} {'asked':>5}   (goals: 99.5 %, 0, 0, -; readable: the tag fully "
          f"visible in {READABLE_FRAMES}+ frames after it landed, says the truth; missed: "
          "no pile event, never put to the host)")
    for name, c in conditions.items():
        r, g = c["readable"], c["glimpsed"]
        share = f"{r['once'] / r['readable']:.1%}" if r["readable"] else "-"
        once = f"{r['once']}/{r['readable']} {share}"
        print(f"  {name:16} {once:>24} {r['twice']:>12} {r['missed']:>6} {r['asked']:>5}"
              f"   (fully visible in fewer frames, one at least: {g['readable']}, of them "
              f"exactly one pile event {g['once']}, missed {g['missed']}, asked {g['asked']})")
    for name, c in conditions.items():
        for m in c["missed_cards"]:
            print(f"    missed ({name}): #{m['serial']} landed {m['landed_s']} s; fully visible "
                  f"in {m['visible_frames']} frames (at most {m['visible_run']} in a row), "
                  f"read in {m['read_after_landing']} after landing ({m['read_while_visible']} "
                  f"while fully visible; at most {m['reads_in_window']} in 3 frames, frames "
                  f"after landing {m['read_at']}); TagSeen {m['seen_events']}; washed out "
                  f"{m['washed']:.0%} at most")

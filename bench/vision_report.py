"""``companion bench vision``: the report's lines (``main``'s JSON printed for a person).

``print_report`` prints the whole run; ``print_table`` the table set's lines (also
printed alone by ``COMPANION_BENCH_ONLY=table``); the conditions' lines are
``bench.vision_condreport``'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bench.vision_kit import PI_RATIO


def print_report(report: dict[str, Any]) -> None:
    out = print
    out(f"vision benchmark on {report['machine']} (decoding pinned to one core); "
        f"load average {_load(report['load_before'])} before, {_load(report['load_after'])} after; "
        f"scale {report['scale']}")
    for split, scores in report["splits"].items():
        tag = "HELD-APART" if split == "held" else "tuning"
        out(f"\n{tag} split ({split}), 1280x720 hard frames: decoder  frames  recall "
            "(read/visible)  false  median CPU ms  p95")
        for name, s in scores.items():
            read = f"({s['read']}/{s['visible']})"
            out(f"  {name:9} {s['frames']:5}  {s['recall']:7.2%}  {read:13} {s['false_reads']:5}"
                f"  {s['median_ms']:9.2f}  {s['p95_ms']:6.2f}")
        for name, s in scores.items():
            out(f"  {name} by hazard: " + ", ".join(f"{h} {v}" for h, v in s["by_hazard"].items()))
    for split, v in report["variants"].items():
        out(f"\nretry variants on the {split} split: {v['located_unread']} codes located but not "
            f"read by zxing-cpp; shipped order {' > '.join(v['order'])}")
        for name, g in v["variants"].items():
            out(f"  {name:14} rescued {g['rescued']:3}/{g['attempts']:<3}  false {g['false']}  "
                f"{g['ms_per_attempt']} CPU ms an attempt")
    for split, by in report["videos"].items():
        out(f"\nNasty 7 videos ({split}), every frame through the pipeline:")
        for name, r in by.items():
            d = r["seen_after_landing_ms"]
            out(f"  {name:8} per-card-event recall {r['event_recall']:.2%} "
                f"({r['events_exact']}/{r['cards']} cards with exactly one TagSeen), "
                f"false events {r['false_events']}, at = first read frame {r['at_first_read']}, "
                f"TagSeen.at after landing median {d['median']} ms, p95 {d['p95']} ms")
    print_table(report.get("table", {}))
    if "conditions" in report:
        from bench.vision_condreport import print_conditions

        print_conditions(report["conditions"])
    out("\nCPU ms a frame (shipped decoder, one core, Y plane): whole frame | zones only "
        "(a pile and four seats) | Pi 4 / Pi 5 estimate of the zones median "
        f"(ratios {PI_RATIO})")
    for size, r in report["resolutions"].items():
        w, z = r["whole_ms"], r["zones_ms"]
        pi = " / ".join(str(e["zones"]) for e in r["pi_estimate_ms"].values())
        out(f"  {size:9} {r['camera']:45} median {w['median']} (p95 {w['p95']}) | "
            f"{z['median']} (p95 {z['p95']}, {r['zones_share']:.0%} of the frame) | {pi}")
    z = report["zones_live"]
    out(f"\n{z['size']} zones at {z['camera_fps']} fps through the pipeline: {z['decoded']} of "
        f"{z['delivered']} frames decoded ({z['decoded_fps']} fps), {z['dropped']} dropped, "
        f"decode median {z['decode_ms']} ms wall, {z['decode_cpu_ms']} ms CPU "
        f"(keeps up with {z['camera_fps']:g} fps on one core: "
        f"{'yes' if z['decode_cpu_ms'] * z['camera_fps'] < 1000 else 'no'}), "
        f"peak memory {z['peak_rss_mb']} MB with the dispute-clip buffer full "
        f"({z['clip_frames']} frames, {z['clip_buffer_mb']} MB)")
    live = report["latency"]
    out(f"demo feed 1280x720 at 30 fps: {live['seen']}/{live['cards']} cards seen, "
        f"{live['fps']} fps decoded, {live['dropped']} dropped; capture of landing -> TagSeen "
        f"median {live['from_landing_ms']['median']} ms; peak memory {live['peak_rss_mb']} MB")
    c = report["clips"]
    out(f"dispute clip buffer (1280x720 in, {c['kept_fps']:g} fps kept, {c['seconds']:g} s): "
        f"{c['buffer_mb']} MB held (budget {c['budget_mb']} MB), "
        f"{c['ms_per_camera_frame']} ms per camera frame on average "
        f"({c['ms_per_kept_frame']['median']} ms per kept frame); "
        f"peak memory {c['peak_rss_mb']} MB")


def print_table(table: dict[str, Any]) -> None:
    """The table set's lines of the report (``run_table_set``)."""
    out = print
    for split, r in table.items():
        tag = "HELD-APART" if split == "table-held" else "tuning"
        out(f"\n{tag} table set ({split}): hands resting, cards beside the pile, every frame "
            "through the pipeline and The Nasty 7's engine")
        for name in ("shipped", "zxing"):
            c = r[name]
            out(f"  {name:8} exactly one TagSeen {c['exactly_one']}/{c['eligible']} cards fully "
                f"visible in 2+ frames ({c['exactly_one_share']:.2%}), false events "
                f"{c['false_events']}, refusals of unmoved cards {c['refusals_of_unmoved']}, "
                f"silent drops {c['silent_drops']}, put to the host {c['put_to_host']}, "
                f"false hesitation penalties {c['false_hesitation_penalties']}; "
                f"CPU ms a frame median {c['median_ms']} p95 {c['p95_ms']} ({c['frames']} frames)")
        pi = ", ".join(f"{k} {v} ms" for k, v in r["pi_p95_ms"].items())
        out(f"  shipped / zxing-cpp alone: p95 {r['p95_ratio']}x, median {r['median_ratio']}x; "
            f"shipped p95 estimated on {pi} (frame budget 33 ms at 30 fps)")


def _load(v: Iterable[float]) -> str:
    return "/".join(f"{x:.1f}" for x in v)

"""Charts of sweeps and comparisons (matplotlib, an optional extra: pip install 'reasoner[plot]').

Figures are built with matplotlib.figure.Figure, never pyplot, so that writing a PNG from the command line
needs no display and leaves a notebook's backend alone; in a notebook, pass `figure=plt.figure(...)`.
"""
from __future__ import annotations

import textwrap

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from reasoner.law.labels import STATUS_LABELS
from reasoner.law.locator import encoded_ordinances
from reasoner.law.vocabulary import vocabulary

STATUS_COLOURS = {"permit_required": "#c0392b", "exempt": "#27ae60", "not_regulated": "#bdc3c7"}
STATUS_WORDS = {status: STATUS_LABELS[status] for status in STATUS_COLOURS}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


class PlotUnavailable(RuntimeError):
    pass


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailable("plots need matplotlib: pip install 'reasoner[plot]'") from None
    return Figure


def colour(ordinance: str) -> str:
    """One colour per ordinance, the same in every chart."""
    order = list(encoded_ordinances())
    return PALETTE[order.index(ordinance) % len(PALETTE)] if ordinance in order else PALETTE[-1]


def _words(name: str) -> str:
    return name.replace("_", " ")


def _unit_label(unit: str | None) -> str:
    return {"usd": "US dollars", "count": "number", None: ""}.get(unit, _words(unit or ""))


def _numeric(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- sweeps

def sweep_obligations(result: Any, limit: int = 6) -> list[str]:
    """The obligations worth a panel: those with an amount in some ordinance that changes over the range,
    most widely shared first, counts before money, in the vocabulary's order."""
    order = list(vocabulary()["obligations"])
    seen: dict[str, set] = {}
    values: dict[str, set] = {}
    units: dict[str, str | None] = {}
    for records in result.points.values():
        for record in records:
            for item in record["conclusions"]:
                if item["kind"] == "obligation" and _numeric(item["value"]):
                    seen.setdefault(item["name"], set()).add(record["ordinance"])
                    values.setdefault(item["name"], set()).add((record["ordinance"], item["value"]))
                    units[item["name"]] = item["unit"]
    moving = [name for name in seen if len(values[name]) > len(seen[name])]
    moving.sort(key=lambda n: (-len(seen[n]), units[n] != "count", order.index(n) if n in order else len(order)))
    return moving[:limit]


FILING = "application_filing"


def _filing_days(record: dict[str, Any]) -> int | None:
    """Days to spare before the filing deadline (negative: days late), or None without a filing deadline."""
    for item in record["conclusions"]:
        if item["name"] == FILING and item["kind"] == "on_time":
            return item["value"]
        if item["name"] == FILING and item["kind"] == "late":
            return -item["value"]
    return None


def _filing_varies(result: Any) -> bool:
    seen: dict[str, set[int]] = {}
    for records in result.points.values():
        for record in records:
            days = _filing_days(record)
            if days is not None:
                seen.setdefault(record["ordinance"], set()).add(days)
    return any(len(days) > 1 for days in seen.values())


def _filing_panel(axis: Any, result: Any, xs: list[int]) -> None:
    for index, ordinance in enumerate(result.ordinances):
        days = [_filing_days(next(r for r in result.points[x] if r["ordinance"] == ordinance)) for x in xs]
        if all(d is None for d in days):
            continue
        moving = _is_proportional(result, ordinance, "on_time", FILING) or _is_proportional(result, ordinance, "late", FILING)
        _draw(axis, [_x(result, x) for x in xs], [float("nan") if d is None else d for d in days], moving,
              {"color": colour(ordinance), "linewidth": _width(index), "label": ordinance})
    axis.axhline(0, color="black", linewidth=0.8)
    axis.set_title("application filing: days to spare (below 0: days late)", fontsize=10, loc="left")
    axis.set_ylabel("days", fontsize=8)
    axis.set_xlabel(_words(result.vary.field), fontsize=8)
    axis.tick_params(labelsize=8)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=7, loc="upper right")


def _is_proportional(result: Any, ordinance: str, kind: str, name: str) -> bool:
    return any((p["ordinance"], p["kind"], p["name"]) == (ordinance, kind, name) for p in result.proportional)


def _draw(axis: Any, xs: list[Any], ys: list[float], proportional: bool, style: dict[str, Any]) -> None:
    """Steps where every change point was evaluated on both sides (exact); straight lines between samples for
    amounts that change at nearly every value (water, parking, days to spare), whose steps are not listed."""
    if proportional:
        axis.plot(xs, ys, **style)
    else:
        axis.step(xs, ys, where="post", **style)


def _width(index: int) -> float:
    """Earlier ordinances draw thicker lines, so that equal amounts show as nested strokes, not one line."""
    return max(1.0, 4.2 - 0.8 * index)


def _x(result: Any, x: int) -> Any:
    return date.fromordinal(x) if result.vary.is_date else x


def sweep_figure(result: Any, obligations: Sequence[str] | None = None, figure: Any = None) -> Any:
    """The status of each ordinance along the range (top) and one panel per obligation: its amount against the
    varied fact, a line per ordinance (dashed where the authority *may* require it). The lines are drawn as
    steps through every evaluated point, which include both sides of every change point."""
    Figure = _figure_class()
    names = list(obligations) if obligations is not None else sweep_obligations(result)
    if obligations is None and _filing_varies(result):
        names = [FILING, *names][:6]
    columns = 2 if len(names) > 1 else 1
    rows = (len(names) + columns - 1) // columns
    if figure is None:
        figure = Figure(figsize=(11, 2.2 + 2.6 * rows), layout="constrained")
    grid = figure.add_gridspec(rows + 1, columns, height_ratios=[0.25 + 0.22 * len(result.ordinances)] + [1.0] * rows)
    xs = sorted(result.points)
    axis = figure.add_subplot(grid[0, :])
    _status_bars(axis, result, xs)
    for index, name in enumerate(names):
        panel = figure.add_subplot(grid[1 + index // columns, index % columns], sharex=axis)
        if name == FILING:
            _filing_panel(panel, result, xs)
        else:
            _obligation_panel(panel, result, xs, name)
    field = _words(result.vary.field)
    figure.suptitle(f"{result.event}: conclusions as {field} varies", fontsize=12)
    return figure


def _status_bars(axis: Any, result: Any, xs: list[int]) -> None:
    end = xs[-1] + max(1, result.step // 20)
    for row, ordinance in enumerate(result.ordinances):
        statuses = [(x, next(r["status"] for r in result.points[x] if r["ordinance"] == ordinance)) for x in xs]
        start, current = statuses[0]
        segments = []
        for x, status in statuses[1:] + [(end, None)]:
            if status != current:
                segments.append((start, x, current))
                start, current = x, status
        for left, right, status in segments:
            axis.barh(row, right - left, left=_x(result, left), color=STATUS_COLOURS[status], height=0.7)
            if right - left > (end - xs[0]) * 0.04 and status == "permit_required" and left != xs[0]:
                axis.annotate(f"{result.vary.show(left):,}" if not result.vary.is_date else result.vary.show(left),
                              (_x(result, left), row), xytext=(3, 0), textcoords="offset points",
                              va="center", fontsize=8, color="white")
    rows = {o: i for i, o in enumerate(result.ordinances)}
    ticks = sorted({(c["x"], c["ordinance"]) for c in result.changes})
    axis.scatter([_x(result, x) for x, _ in ticks], [rows[o] for _, o in ticks], marker="|", s=120, color="black",
                 linewidths=1.2, zorder=3, label="a conclusion changes")
    axis.legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False, borderaxespad=0.2)
    axis.set_yticks(range(len(result.ordinances)), [o for o in result.ordinances])
    axis.invert_yaxis()
    axis.set_title(f"status (red: {STATUS_WORDS['permit_required']}, green: {STATUS_WORDS['exempt']}, "
                   f"grey: {STATUS_WORDS['not_regulated']})", fontsize=9, loc="left")
    axis.tick_params(labelbottom=True, labelsize=8)


def _obligation_panel(axis: Any, result: Any, xs: list[int], name: str) -> None:
    unit = None
    for ordinance in result.ordinances:
        series_x, series_y, may = [], [], False
        for x in xs:
            record = next(r for r in result.points[x] if r["ordinance"] == ordinance)
            items = [i for i in record["conclusions"] if i["kind"] == "obligation" and i["name"] == name and _numeric(i["value"])]
            series_x.append(_x(result, x))
            series_y.append(max(i["value"] for i in items) if items else float("nan"))
            if items:
                unit = items[0]["unit"]
                may = may or all(i["modality"] == "may" for i in items)
        if all(y != y for y in series_y):
            continue
        style = {"color": colour(ordinance), "linestyle": "--" if may else "-",
                 "linewidth": _width(list(result.ordinances).index(ordinance)), "label": ordinance + (" (may)" if may else "")}
        _draw(axis, series_x, series_y, _is_proportional(result, ordinance, "obligation", name), style)
    axis.set_title(_words(name), fontsize=10, loc="left")
    axis.set_ylabel(_unit_label(unit), fontsize=8)
    axis.set_xlabel(_words(result.vary.field), fontsize=8)
    axis.tick_params(labelsize=8)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=7, loc="upper left")


def save_sweep_plot(result: Any, path: str | Path, obligations: Sequence[str] | None = None) -> Path:
    """Write the sweep chart to a PNG file."""
    figure = sweep_figure(result, obligations)
    path = Path(path)
    figure.savefig(path, dpi=110)
    return path


# ---------------------------------------------------------------- comparisons

def status_figure(tables: Sequence[dict[str, Any]], figure: Any = None) -> Any:
    """A grid of events (rows) by ordinances (columns), each cell coloured and labelled with the status."""
    Figure = _figure_class()
    ordinances = [o["ordinance"] for o in tables[0]["ordinances"]]
    if figure is None:
        figure = Figure(figsize=(1.8 * len(ordinances) + 3, 0.6 * len(tables) + 1.2), layout="constrained")
    axis = figure.add_subplot()
    for row, table in enumerate(tables):
        for column, info in enumerate(table["ordinances"]):
            status = info["status"]
            axis.add_patch(_rectangle((column, row), STATUS_COLOURS[status]))
            # wrapped to the cell: "permit or license required" is wider than a column of ten ordinances
            axis.text(column + 0.5, row + 0.5, textwrap.fill(STATUS_WORDS[status], 16), ha="center", va="center", fontsize=8,
                      color="white" if status == "permit_required" else "black")
    axis.set_xlim(0, len(ordinances))
    axis.set_ylim(len(tables), 0)
    axis.set_xticks([c + 0.5 for c in range(len(ordinances))], ordinances)
    axis.set_yticks([r + 0.5 for r in range(len(tables))], [t["event"] for t in tables])
    axis.tick_params(length=0, labelsize=9)
    axis.xaxis.tick_top()
    for side in axis.spines.values():
        side.set_visible(False)
    return figure


def _rectangle(corner: tuple[int, int], colour_: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle(corner, 1, 1, facecolor=colour_, edgecolor="white", linewidth=2)


def _money_axis(axis: Any) -> None:
    from matplotlib.ticker import FuncFormatter

    def money(value: float, _: Any) -> str:
        for size, suffix in ((1_000_000, "M"), (1_000, "k")):
            if abs(value) >= size:
                return f"${value / size:g}{suffix}"
        return f"${value:g}"

    axis.yaxis.set_major_formatter(FuncFormatter(money))


def obligation_bars(tables: Sequence[dict[str, Any]], names: Sequence[str], figure: Any = None) -> Any:
    """One panel per obligation: for each event, a bar per ordinance with its amount (hatched where the
    authority *may* require it); cells without an amount are labelled at the foot of the axis (n/r: not
    regulated, ex: exempt, none: no such requirement, req: required, no amount stated), so that a missing
    bar is never mistaken for zero."""
    Figure = _figure_class()
    ordinances = [o["ordinance"] for o in tables[0]["ordinances"]]
    columns = 2 if len(names) > 1 else 1
    rows = (len(names) + columns - 1) // columns
    if figure is None:
        figure = Figure(figsize=(12, 3.2 * rows + 0.5), layout="constrained")
    width = 0.8 / len(ordinances)
    marks = {"not_regulated": "n/r", "exempt": "ex", "none": "none"}
    for index, name in enumerate(names):
        axis = figure.add_subplot(rows, columns, index + 1)
        unit = None
        for e, table in enumerate(tables):
            row = next((r for r in table["rows"] if r["kind"] == "obligation" and r["name"] == name), None)
            for o, ordinance in enumerate(ordinances):
                x = e + (o - (len(ordinances) - 1) / 2) * width
                status = table["ordinances"][o]["status"]
                cell = row["cells"][ordinance] if row else {"state": "none" if status == "permit_required" else status, "items": []}
                amounts = [i["value"] for i in cell["items"] if _numeric(i["value"])]
                if amounts:
                    unit = row["unit"]
                    may = all(i["modality"] == "may" for i in cell["items"])
                    axis.bar(x, max(amounts), width=width, color=colour(ordinance), hatch="//" if may else None,
                             edgecolor=colour(ordinance), alpha=0.5 if may else 1.0)
                else:
                    text = "req" if cell["state"] == "holds" else marks.get(cell["state"], "")
                    axis.text(x, 0, " " + text, rotation=90, ha="center", va="bottom", fontsize=7,
                              color=colour(ordinance), transform=axis.transData)
        axis.set_xticks(range(len(tables)), [t["event"].replace("compare-", "").rsplit("-", 1)[0] for t in tables],
                        fontsize=8)
        axis.set_title(_words(name), fontsize=10, loc="left")
        axis.set_ylabel(_unit_label(unit), fontsize=8)
        if unit == "usd":
            _money_axis(axis)
        axis.set_ylim(bottom=0)
        axis.margins(y=0.25)
        axis.grid(axis="y", alpha=0.3)
    handles = [_patch(colour(o), o) for o in ordinances] + [_patch("#999999", "may require", hatch="//")]
    figure.legend(handles=handles, loc="outside upper center", ncols=len(handles), fontsize=8, frameon=False)
    return figure


def _patch(colour_: str, label: str, hatch: str | None = None) -> Any:
    from matplotlib.patches import Patch

    if hatch:
        return Patch(facecolor="white", edgecolor=colour_, hatch=hatch, label=label)
    return Patch(color=colour_, label=label)

"""Colours and the style sheet of the chat widgets, derived from the current palette.

The app follows the OS palette (light or dark); the widgets only add a few tints on top of it, so
both stay readable. `dark_palette` / `light_palette` exist for screenshots and tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from PyQt6.QtGui import QColor, QPalette
from PyQt6.QtWidgets import QApplication


@dataclass(frozen=True)
class ThemeColors:
    """The few colours the chat adds to the palette."""

    dark: bool
    user_bubble: str
    card: str
    border: str
    muted: str
    error: str
    ok: str
    warning: str
    code: str


def _luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two colours (1 to 21; 4.5 is the minimum for text)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def is_dark(palette: QPalette) -> bool:
    """True when the window background is darker than its text."""
    bg = palette.color(QPalette.ColorRole.Window)
    fg = palette.color(QPalette.ColorRole.WindowText)
    return bg.lightness() < fg.lightness()


def colors(palette: QPalette) -> ThemeColors:
    """Tints that keep contrast on the given palette."""
    if is_dark(palette):
        return ThemeColors(
            True,
            "#2d3e55",
            "#2a2d31",
            "#4a4f57",
            "#a8b0ba",
            "#ff8a80",
            "#81c995",
            "#fdd663",
            "#1e2124",
        )
    return ThemeColors(
        False,
        "#e3eefc",
        "#f6f7f9",
        "#d0d5dc",
        "#5f6670",
        "#b3261e",
        "#1e7b34",
        "#8a5a00",
        "#f0f2f4",
    )


def style_sheet(
    palette: QPalette, *, isolate: bool = False, host: tuple[QColor, QColor] | None = None
) -> str:
    """The chat widgets' style sheet (selectors by objectName only, nothing global).

    ``isolate``: a host application's style sheet (the GNS3 GUI's, e.g. ``QWidget {
    background-color: #535353 }``) reaches into the panel; then the conversation is drawn on the
    palette's own colours, and every rule is scoped under ``#chatPanel`` so it outranks the
    host's rules and the conversation's reset. ``host``: the host's background and text colours
    where its style sheet paints the panel (the header and status line show them).
    """
    c = colors(palette)
    rules = _tint_rules(c)
    if not isolate:
        return rules
    scoped = _conversation_reset(palette, c) + _scoped(rules, "#chatPanel")
    if host is None:
        return scoped
    # Outside the conversation the host's own background shows (GNS3's #535353): the tints there
    # are made readable on it; inside the conversation (one id more) the palette's stay.
    host_bg, host_fg = host
    outside = {
        "#muted, #stateMuted": readable_on(QColor(c.muted), host_bg, host_fg),
        "#stateWaiting": readable_on(QColor(c.warning), host_bg, host_fg),
        "#stateOk": readable_on(QColor(c.ok), host_bg, host_fg),
        "#errorText, #stateError": readable_on(QColor(c.error), host_bg, host_fg),
    }
    extra = "".join(
        f"\n{', '.join(f'#chatPanel {sel.strip()}' for sel in selectors.split(','))} "
        f"{{ color: {colour.name()}; }}"
        for selectors, colour in outside.items()
    )
    inside = "".join(
        f"\n{', '.join(f'#chatPanel #conversation {sel.strip()}' for sel in selectors.split(','))}"
        f" {{ color: {colour}; }}"
        for selectors, colour in {
            "#muted, #stateMuted": c.muted,
            "#stateWaiting": c.warning,
            "#stateOk": c.ok,
            "#errorText, #stateError": c.error,
        }.items()
    )
    return scoped + extra + inside


def readable_on(colour: QColor, background: QColor, text: QColor, minimum: float = 4.6) -> QColor:
    """``colour`` moved toward ``text`` (the host's text colour) until it reads on
    ``background`` at ``minimum``:1 (WCAG asks 4.5 for text)."""
    if contrast_ratio(colour, background) >= minimum:
        return colour
    for step in range(1, 11):
        t = step / 10
        mixed = QColor(
            round(colour.red() * (1 - t) + text.red() * t),
            round(colour.green() * (1 - t) + text.green() * t),
            round(colour.blue() * (1 - t) + text.blue() * t),
        )
        if contrast_ratio(mixed, background) >= minimum:
            return mixed
    return text


def _conversation_reset(palette: QPalette, c: ThemeColors) -> str:
    """The conversation's widgets back on the palette: no inherited backgrounds or text colours."""
    role = QPalette.ColorRole
    base, text = palette.color(role.Base).name(), palette.color(role.Text).name()
    button, button_text = palette.color(role.Button).name(), palette.color(role.ButtonText).name()
    return f"""
#conversation {{ background: {base}; color: {text}; }}
#conversation QWidget {{ background: transparent; color: {text}; }}
#conversation QPushButton, #conversation QToolButton {{ background: {button};
    color: {button_text}; border: 1px solid {c.border}; border-radius: 4px; padding: 2px 8px; }}
#conversation QLineEdit, #conversation QPlainTextEdit, #conversation QTextEdit {{
    background: {base}; color: {text}; border: 1px solid {c.border}; }}
"""


def _scoped(rules: str, scope: str) -> str:
    """Every selector of `rules` prefixed by `scope` (one more id: it wins on specificity)."""
    out = []
    for rule in rules.split("}"):
        if "{" not in rule:
            out.append(rule)
            continue
        selectors, body = rule.split("{", 1)
        scoped = ", ".join(f"{scope} {sel.strip()}" for sel in selectors.split(","))
        out.append(f"\n{scoped} {{{body}")
    return "}".join(out)


def _tint_rules(c: ThemeColors) -> str:
    return f"""
#userBubble {{ background: {c.user_bubble}; border-radius: 8px; }}
#toolCard, #approvalCard, #errorBanner, #toolGroup {{
    background: {c.card}; border: 1px solid {c.border}; border-radius: 6px; }}
#approvalCard {{ border-color: {c.warning}; }}
#errorBanner {{ border-color: {c.error}; }}
#errorText, #stateError {{ color: {c.error}; }}
#stateOk {{ color: {c.ok}; }}
#stateWaiting {{ color: {c.warning}; }}
#riskDestructive {{ color: {c.error}; font-weight: bold; }}
#approvalItemDestructive {{ border-left: 3px solid {c.error}; }}
#approveDestructive {{ color: {c.error}; border: 1px solid {c.error}; border-radius: 4px;
    padding: 2px 8px; }}
#muted, #stateMuted {{ color: {c.muted}; }}
#codeBlock {{ background: {c.code}; border: 1px solid {c.border}; border-radius: 4px; }}
#truncatedBadge {{ color: {c.warning}; border: 1px solid {c.warning}; border-radius: 3px;
    padding: 0 3px; }}
"""


def _palette(colours: dict[QPalette.ColorRole, str]) -> QPalette:
    palette = QPalette()
    for role, value in colours.items():
        palette.setColor(role, QColor(value))
    return palette


def dark_palette() -> QPalette:
    """A dark palette like the ones desktop environments ship."""
    r = QPalette.ColorRole
    palette = _palette(
        {
            r.Window: "#202124",
            r.WindowText: "#e8eaed",
            r.Base: "#18191b",
            r.AlternateBase: "#2a2b2e",
            r.Text: "#e8eaed",
            r.Button: "#2d2e31",
            r.ButtonText: "#e8eaed",
            r.Highlight: "#3b6fb6",
            r.HighlightedText: "#ffffff",
            r.ToolTipBase: "#2d2e31",
            r.ToolTipText: "#e8eaed",
            r.PlaceholderText: "#9aa0a6",
            r.Link: "#8ab4f8",
            r.Mid: "#3c4043",
            r.Dark: "#111214",
            r.Light: "#4a4d51",
        }
    )
    # Desktop dark themes grey out what cannot be used (a finished Undo, a busy button).
    for role in (r.WindowText, r.Text, r.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#80868b"))
    return palette


def light_palette() -> QPalette:
    """Qt's default (light) palette of the Fusion style."""
    style = QApplication.style()
    return style.standardPalette() if style is not None else QPalette()

"""The fault catalog shipped with the app (``resources/practice/faults.json``, our own text).

Each fault says what it breaks, on which platforms, how to inject and undo it there, the checks
that prove it fixed, its symptoms and a ladder of three hints. Steps and checks hold
placeholders in braces (``{address}``) that the practice engine fills from the lab; only the
names in `PARAMETERS` may appear. The file is parsed strictly: an unknown field or placeholder is
an error, never ignored.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.paths import resource_path

Platform = Literal["vpcs", "ios", "linux", "link"]
Difficulty = Literal["beginner", "intermediate", "advanced"]
DIFFICULTIES: tuple[Difficulty, ...] = ("beginner", "intermediate", "advanced")
TOPICS = ("addressing", "switching/VLANs", "routing protocols", "ACLs", "link quality")

PARAMETERS = frozenset(
    {
        "node", "peer", "link", "address", "prefix", "mask", "gateway", "peer_address",
        "wrong_address", "wrong_prefix", "wrong_mask", "wrong_gateway", "interface", "network",
        "wildcard", "next_hop", "ospf_process", "area", "wrong_area", "vlan", "wrong_vlan", "mtu",
        "asn", "wrong_asn", "neighbor", "neighbor_asn", "beyond", "beyond_node", "route",
        "hello", "wrong_hello", "wrong_mtu",
    }
)  # fmt: skip
"""The placeholders the catalog may use."""


class CatalogError(CopilotError):
    """The fault catalog is missing or does not parse."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LinkAction(_Strict):
    """A change of a link through the GNS3 API: suspend it, or set its packet filters."""

    suspend: bool | None = None
    filters: dict[str, list[int | str]] | None = None


class Steps(_Strict):
    """How to inject or undo a fault on one platform: console commands, IOS configuration lines
    (entered in configuration mode), or a link change."""

    console: list[str] = Field(default_factory=list)
    config: list[str] = Field(default_factory=list)
    link: LinkAction | None = None
    offline: bool = False
    """Run the console commands while the node's links are suspended, as on a host configured
    while unplugged (VPCS refuses an address that another host answers for)."""

    @model_validator(mode="after")
    def _not_empty(self) -> Steps:
        if not (self.console or self.config or self.link):
            raise ValueError("steps need console commands, configuration lines or a link action")
        return self

    def texts(self) -> list[str]:
        """Every text that may hold placeholders."""
        return [*self.console, *self.config]


class Check(_Strict):
    """One thing that is true once the fault is fixed.

    ``ping``: ``from`` (a node) reaches ``to`` (an address) over the console with ``count``
    echoes, at most ``max_loss`` percent of them lost (99: one answer is enough) and, with
    ``max_rtt_ms``, every answer within that time; ``link``: the fault's link (or a link that
    replaced it between the same nodes) is not suspended and has no filters (GNS3 API);
    ``show``: ``command`` on the fault's node prints something matching the regular expression
    ``expect`` (or, with ``absent``, nothing matching it).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    kind: Literal["ping", "link", "show"]
    title: str = Field(min_length=1)
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    command: str | None = None
    expect: str | None = None
    absent: bool = False
    count: int = Field(default=2, ge=1, le=20)
    max_loss: int = Field(default=99, ge=0, le=99)
    max_rtt_ms: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _fields_of_kind(self) -> Check:
        if self.kind == "ping" and not (self.from_ and self.to):
            raise ValueError("a ping check needs 'from' and 'to'")
        if self.kind == "show" and not (self.command and self.expect):
            raise ValueError("a show check needs 'command' and 'expect'")
        return self

    def texts(self) -> list[str]:
        """Every text that may hold placeholders."""
        return [t for t in (self.title, self.from_, self.to, self.command, self.expect) if t]


class FaultText(_Strict):
    """A fault's texts in another language: the same placeholders, three hints and one title per
    check, in the checks' order."""

    title: str = Field(min_length=1)
    symptoms: str = Field(min_length=1)
    ticket: str = Field(min_length=1)
    hints: list[str] = Field(min_length=3, max_length=3)
    checks: list[str] = Field(min_length=1)


class Fault(_Strict):
    """One fault of the catalog."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{2,60}$")
    title: str = Field(min_length=3)
    topic: str
    difficulty: Difficulty
    applies_to: list[Platform] = Field(min_length=1)
    tested_end_to_end: bool = False
    inject: dict[str, Steps]
    undo: dict[str, Steps]
    checks: list[Check] = Field(min_length=1)
    symptoms: str = Field(min_length=10)
    ticket: str = Field(min_length=10)
    """What the learner hears first, as a user would report it ("PC1 cannot reach PC2 since
    this morning"); placeholders are filled from the lab."""
    known_issue: str = ""
    """Why the fault is not drawn at random (a trainer may still name it), when it is not safe
    on some device version."""
    settle_s: int = Field(default=0, ge=0, le=120)
    """How long the fault may take to show after its steps ran (a routing protocol drops a
    neighbour only when its dead timer runs out): the start waits up to this long for a check
    to fail before it calls the injection unproven."""
    level_note: str = ""
    """Why the fault has its level, where that is not obvious (a fault GNS3 draws on screen)."""
    hints: list[str] = Field(min_length=3, max_length=3)
    translations: dict[str, FaultText] = Field(default_factory=dict)
    """The texts in other languages, by language code (``zh_CN``)."""

    @field_validator("topic")
    @classmethod
    def _known_topic(cls, value: str) -> str:
        if value not in TOPICS:
            raise ValueError(f"unknown topic {value!r} (one of {', '.join(TOPICS)})")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Fault:
        for name, steps in (("inject", self.inject), ("undo", self.undo)):
            if set(steps) != set(self.applies_to):
                raise ValueError(f"{name} must have steps for exactly {self.applies_to}")
        is_link = "link" in self.applies_to
        if is_link and len(self.applies_to) != 1:
            raise ValueError("a link fault applies to links only")
        texts = [t for s in (*self.inject.values(), *self.undo.values()) for t in s.texts()]
        texts += [t for c in self.checks for t in c.texts()]
        texts.append(self.ticket)
        shown_as_is = [self.title, self.symptoms, self.level_note, self.known_issue, *self.hints]
        if any("{" in t or "}" in t for t in shown_as_is):
            raise ValueError(
                "title, symptoms, level note and hints are shown as written: no braces"
            )
        unknown = sorted({p for t in texts for p in placeholders(t)} - PARAMETERS)
        if unknown:
            raise ValueError(f"unknown placeholders: {', '.join(unknown)}")
        for language, text in self.translations.items():
            self._same_shape(language, text)
        return self

    def _same_shape(self, language: str, text: FaultText) -> None:
        """A translation fills the same placeholders and shows no braces where English shows
        none, with a title for each check."""
        if len(text.checks) != len(self.checks):
            raise ValueError(f"{language}: one title per check ({len(self.checks)})")
        pairs = [(self.ticket, text.ticket)]
        pairs += [(c.title, t) for c, t in zip(self.checks, text.checks, strict=True)]
        if any(placeholders(english) != placeholders(other) for english, other in pairs):
            raise ValueError(f"{language}: the ticket and check titles keep their placeholders")
        if any("{" in t or "}" in t for t in (text.title, text.symptoms, *text.hints)):
            raise ValueError(f"{language}: title, symptoms and hints are shown as written")

    def localized(self, language: str | None) -> Fault:
        """This fault with its texts in ``language`` (as it is when it has none in it)."""
        text = self.translations.get(language or "")
        if text is None:
            return self
        pairs = zip(self.checks, text.checks, strict=True)
        checks = [c.model_copy(update={"title": t}) for c, t in pairs]
        update = {"title": text.title, "symptoms": text.symptoms, "ticket": text.ticket}
        return self.model_copy(update={**update, "hints": list(text.hints), "checks": checks})

    @property
    def platforms(self) -> frozenset[str]:
        """The platforms this fault can be injected on."""
        return frozenset(self.applies_to)


class Catalog(_Strict):
    """The whole catalog."""

    format: Literal[1]
    about: str
    faults: list[Fault] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> Catalog:
        ids = [f.id for f in self.faults]
        if len(ids) != len(set(ids)):
            raise ValueError("fault ids must be unique")
        return self

    def localized(self, language: str | None) -> Catalog:
        """The catalog with every fault's texts in ``language`` where it has them."""
        return self.model_copy(update={"faults": [f.localized(language) for f in self.faults]})

    def get(self, fault_id: str) -> Fault:
        """The fault with this id (KeyError when there is none)."""
        for fault in self.faults:
            if fault.id == fault_id:
                return fault
        raise KeyError(fault_id)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` in a step or check text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def parse_catalog(text: str) -> Catalog:
    """A catalog from its JSON text; `CatalogError` when it does not parse or validate."""
    try:
        return Catalog.model_validate(json.loads(text))
    except (ValueError, ValidationError) as exc:
        raise CatalogError(f"The practice fault catalog is not valid: {exc}") from exc


@cache
def load_catalog(path: Path | None = None) -> Catalog:
    """The catalog shipped with the app (or the one at ``path``)."""
    where = path or resource_path("practice", "faults.json")
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"The practice fault catalog cannot be read ({where}): {exc}") from exc
    return parse_catalog(text)

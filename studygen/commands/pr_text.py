"""What ``studygen render --pr-body FAMILY`` adds to the template's blocks
(:func:`studygen.render.pr_body.pr_body`): the known gaps the README admits
(waivers and explanations with their reasons, unstable timings, image sets
whose ids were not published: ``study.known_gaps()``), and figure links that
resolve on a pull request page (``--link-base URL``).

A pull request description has no folder of its own: a relative image path
resolves against the page, not the repository, so GitHub shows a broken
image. ``--link-base`` turns every figure path (``families/<f>/figures/…``,
from the project root) into ``URL/families/<f>/figures/…``; for GitHub, a
URL such as ``https://github.com/ORG/REPO/raw/BRANCH`` serves the committed
SVG at the head of the pull request.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..errors import UsageError
from ..markdown_format import format_markdown
from ..render.pr_body import pr_body
from ..render.view import StudyView

KNOWN_GAPS_HEADING = "## Known gaps"


def check_link_base(url: str) -> str:
    """``url`` without its trailing ``/`` when it is an absolute http(s) URL.
    Raises UsageError otherwise (a relative base would not resolve either)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--link-base {url!r}: give an absolute http(s) URL, e.g. https://github.com/ORG/REPO/raw/BRANCH")
    return url.rstrip("/")


def link_figures(markdown: str, figures_prefix: str, link_base: str) -> str:
    """Markdown with every link or image target that starts with
    ``figures_prefix`` (``families/<f>/figures/``) prefixed by ``link_base/``."""
    pattern = re.compile(r"\]\((" + re.escape(figures_prefix) + r"[^)\s]*)\)")
    return pattern.sub(lambda match: f"]({link_base}/{match.group(1)})", markdown)


def pr_text(study, link_base: str | None = None) -> str:
    """The pull request description of ``study``: the template's summary,
    results and not-measured blocks, then the known gaps (when the blocks do
    not carry them already), figure links absolute under ``link_base`` when
    given. Raises TemplateError as :func:`studygen.render.pr_body.pr_body`."""
    body = pr_body(study)
    gaps = StudyView(study).known_gaps()
    if gaps and KNOWN_GAPS_HEADING not in body:
        body = body.rstrip("\n") + f"\n\n{KNOWN_GAPS_HEADING}\n\n" + "".join(f"- {gap}\n" for gap in gaps)
        body = format_markdown(body)
    if link_base:
        body = link_figures(body, study.rel(study.charts_dir) + "/", check_link_base(link_base))
    return body

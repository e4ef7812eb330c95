"""Report notes: CommonMark without raw HTML or images, links only to http(s) and mailto.
The one renderer behind the app, the public page and the HTML export."""

from collections.abc import Sequence
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

SAFE_SCHEMES = ("http:", "https:", "mailto:")


def _safe_link(url: str) -> bool:
    return url.strip().lower().startswith(SAFE_SCHEMES)


@lru_cache
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).disable("image")
    md.validateLink = _safe_link  # type: ignore[method-assign]

    def link_open(
        renderer: RendererHTML,
        tokens: Sequence[Token],
        idx: int,
        options: OptionsDict,
        env: EnvType,
    ) -> str:
        tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


def render_notes(markdown: str) -> str:
    """Safe HTML: raw HTML is shown as text, unsafe links stay plain text."""
    return _renderer().render(markdown)

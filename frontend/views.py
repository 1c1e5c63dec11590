"""Pages of the site. Views stay thin: pick the data, render a template."""

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@dataclass(frozen=True)
class GamePage:
    """How the site presents one game: its URL name, display names and a one-line summary."""

    slug: str
    name: str
    native_name: str
    summary: str


GAME_PAGES: dict[str, GamePage] = {
    page.slug: page
    for page in (
        GamePage(
            slug="munger",
            name="Munger",
            native_name="",
            summary=(
                "A tight Canfield-style patience: half-hidden tableau columns, a visible reserve "
                "and a single pass through the stock."
            ),
        ),
        GamePage(
            slug="masterpiece",
            name="Masterpiece",
            native_name="Шедевр",
            summary=(
                "An open patience where every card is visible from the start: build rows by suit "
                "and use the one-card cellar wisely."
            ),
        ),
    )
}


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"games": list(GAME_PAGES.values())})


@require_safe
def rules(request: HttpRequest, game: str) -> HttpResponse:
    page = GAME_PAGES.get(game)
    if page is None:
        raise Http404(f"No game called {game!r}")
    return render(request, f"frontend/rules/{page.slug}.html", {"game": page})

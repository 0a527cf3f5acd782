"""The bundled browser games autoplayer plays end to end, their local server, and Chromium helpers.

- `server`: `GameServer`, the local HTTP server and its record of what each page reports;
- `nonogram`, `puzzles`: the nonogram page's puzzles, skins and URL parameters;
- `browser`: `launch_app` (a Chromium app window) and `headless_screenshot`;
- `static/`: the pages themselves (plain HTML, CSS and JavaScript).
"""

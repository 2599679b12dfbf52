"""Browser tests: the real server driven through Debian's Chromium with Playwright."""

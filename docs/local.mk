# SPDX-License-Identifier: BSD-2-Clause
dist_man_MANS = docs/scaletop.1

EXTRA_DIST += docs/architecture.md docs/design-notes.md docs/snapshot-format.md docs/snapshot.schema.json

# The documents the manual points to are installed in $(docdir).  The
# manual names them, and the bundled themes, as $PREFIX/share/doc/scaletop
# and $PREFIX/share/scaletop; the installed copy says the real $(docdir) and
# $(pkgdatadir) instead (written through a temporary file, never in place).
dist_doc_DATA = docs/themes.md docs/config.md docs/tui.md docs/snapshot-format.md \
	docs/stream-format.md docs/statistics.md LICENSE
install-data-hook: install-man-paths
install-man-paths:
	f='$(DESTDIR)$(man1dir)/scaletop.1'; \
	sed -e 's|\$$PREFIX/share/doc/scaletop|$(docdir)|g' \
		-e 's|\$$PREFIX/share/scaletop|$(pkgdatadir)|g' "$$f" >"$$f.tmp" && \
		mv "$$f.tmp" "$$f" || { rm -f "$$f.tmp"; exit 1; }
.PHONY: install-man-paths

dist_man_MANS = docs/scaletop.1

EXTRA_DIST += docs/architecture.md docs/design-notes.md docs/snapshot-format.md docs/snapshot.schema.json

# The documents the manual points to are installed beside the others in
# $(docdir).  The manual names them by their installed path, written for the
# default prefix (/usr/local/share/doc/scaletop) so that the page reads right
# from the source tree too; the installed copy is corrected for any other
# docdir, through a temporary file, never in place.
dist_doc_DATA = docs/themes.md docs/config.md
install-data-hook: install-man-docdir
install-man-docdir:
	f='$(DESTDIR)$(man1dir)/scaletop.1'; \
	sed 's|/usr/local/share/doc/scaletop|$(docdir)|g' "$$f" >"$$f.tmp" && \
		mv "$$f.tmp" "$$f" || { rm -f "$$f.tmp"; exit 1; }
.PHONY: install-man-docdir

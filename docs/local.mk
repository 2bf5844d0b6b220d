dist_man_MANS = docs/scaletop.1

EXTRA_DIST += docs/architecture.md docs/design-notes.md docs/snapshot-format.md docs/snapshot.schema.json \
	docs/statistics.md

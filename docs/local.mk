dist_man_MANS = docs/scaletop.1

EXTRA_DIST += docs/snapshot-format.md docs/snapshot.schema.json

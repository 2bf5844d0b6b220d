dist_man_MANS = docs/scaletop.1


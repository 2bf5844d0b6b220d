/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One ELF object's PT_LOAD segments, build ID and symbols, read with
 * libelf, for the symboliser (symbols.c): the segments turn a mapping's
 * file offset into an ELF address, the symbols name it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/symbols.h"

#ifdef HAVE_GELF_H
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#define NT_BUILD_ID 3 /* NT_GNU_BUILD_ID, owner "GNU" */

/*
 * .symtab is taken when the file has one (an unstripped build), else .dynsym
 * (what a distribution's stripped binary keeps: its exported names); the
 * .gnu_debuglink section names a separate debug file and its CRC.  Built
 * without libelf (no gelf.h, as in the BSD compile checks' sysroots) the
 * load fails with ENOSYS and the pure arithmetic below still builds.
 */

static int
elf_fail(char *why, size_t whylen, int e, const char *path, const char *what)
{
	snprintf(why, whylen, "%s: %s", path, what);
	errno = e;
	return -1;
}

static void
elf_segments(Elf *e, struct elf_image *img)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n) != 0)
		return;
	for (i = 0; i < n && img->nseg < ELF_SEGMENTS_MAX; i++) {
		if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		img->seg[img->nseg].vaddr = ph.p_vaddr;
		img->seg[img->nseg].memsz = ph.p_memsz;
		img->seg[img->nseg].offset = ph.p_offset;
		img->seg[img->nseg].filesz = ph.p_filesz;
		img->nseg++;
	}
}

/* The GNU build ID from a note section's data (namesz, descsz, type, name, desc; 4-aligned). */
static void
elf_build_id(const unsigned char *p, size_t len, struct elf_image *img)
{
	uint32_t h[3];
	size_t off = 0, nsz, dsz;

	while (len - off >= sizeof h) {
		memcpy(h, p + off, sizeof h);
		off += sizeof h;
		nsz = (h[0] + 3u) & ~3u;
		dsz = (h[1] + 3u) & ~3u;
		if (nsz > len - off || dsz > len - off - nsz)
			return;
		if (h[2] == NT_BUILD_ID && h[0] == 4 && memcmp(p + off, "GNU", 4) == 0 &&
		    h[1] > 0 && h[1] <= BUILD_ID_MAX) {
			memcpy(img->build_id, p + off + nsz, h[1]);
			img->build_id_len = h[1];
			return;
		}
		off += nsz + dsz;
	}
}

/* nm's letter for a symbol: T text, D data, B bss, N other; lower case when local. */
static char
elf_sym_type(Elf *e, const GElf_Sym *s)
{
	Elf_Scn *scn = elf_getscn(e, s->st_shndx);
	GElf_Shdr sh;
	char c = 'N';
	int t = GELF_ST_TYPE(s->st_info);

	if (t == STT_FUNC || t == STT_GNU_IFUNC)
		c = 'T';
	else if (t == STT_OBJECT || t == STT_COMMON)
		c = scn != NULL && gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_NOBITS ? 'B'
											      : 'D';
	if (GELF_ST_BIND(s->st_info) == STB_LOCAL)
		c = (char)(c - 'A' + 'a');
	else if (GELF_ST_BIND(s->st_info) == STB_WEAK)
		c = 'W';
	return c;
}

static int
elf_symbols(Elf *e, Elf_Scn *scn, struct elf_image *img)
{
	GElf_Shdr sh;
	GElf_Sym s;
	Elf_Data *d;
	const char *name;
	size_t i, n;
	int t;

	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0 ||
	    (d = elf_getdata(scn, NULL)) == NULL)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (gelf_getsym(d, (int)i, &s) == NULL || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx >= SHN_LORESERVE || s.st_value == 0)
			continue;
		t = GELF_ST_TYPE(s.st_info);
		if (t == STT_SECTION || t == STT_FILE || t == STT_TLS)
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (name == NULL || name[0] == '\0' || name[0] == '$' || name[0] == '@')
			continue;
		/* a versioned name ("pthread_mutex_lock@@GLIBC_2.2.5") is the function's */
		if (symtab_add(&img->syms, s.st_value, s.st_size, elf_sym_type(e, &s), name,
			       strcspn(name, "@"), NULL, 0) < 0)
			return -1;
	}
	return 0;
}

/*
 * .gnu_debuglink: the debug file's name, ended and padded to 4 bytes, then
 * its CRC-32 in the object's byte order.
 */
static void
elf_debuglink(Elf *e, Elf_Scn *scn, struct elf_image *img)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	const unsigned char *p, *c;
	size_t n, off;
	char *ident;

	if (d == NULL || d->d_buf == NULL || d->d_size < 8 ||
	    (ident = elf_getident(e, NULL)) == NULL)
		return;
	p = d->d_buf;
	n = strnlen((const char *)p, d->d_size);
	off = (n + 4) & ~(size_t)3;
	if (n == 0 || n >= sizeof img->debuglink || off + 4 > d->d_size)
		return;
	memcpy(img->debuglink, p, n);
	img->debuglink[n] = '\0';
	c = p + off;
	if (ident[EI_DATA] == ELFDATA2MSB)
		img->debuglink_crc =
			(uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
	else
		img->debuglink_crc =
			(uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[1] << 8 | c[0];
}

/* The build ID and debug link, then the symbols: .symtab, else .dynsym. */
static int
elf_sections(Elf *e, struct elf_image *img)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	const char *name;
	size_t shstr = 0;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		shstr = 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		name = shstr != 0 ? elf_strptr(e, shstr, sh.sh_name) : NULL;
		if (name != NULL && strcmp(name, ".gnu_debuglink") == 0)
			elf_debuglink(e, scn, img);
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_NOTE && img->build_id_len == 0 &&
			 (d = elf_getdata(scn, NULL)) != NULL && d->d_buf != NULL)
			elf_build_id(d->d_buf, d->d_size, img);
	}
	img->table = symtab != NULL ? ".symtab" : dynsym != NULL ? ".dynsym" : "";
	if (elf_symbols(e, symtab != NULL ? symtab : dynsym, img) < 0)
		return -1;
	if (symtab != NULL && img->syms.n == 0 && dynsym != NULL) {
		img->table = ".dynsym";
		if (elf_symbols(e, dynsym, img) < 0)
			return -1;
	}
	symtab_sort(&img->syms);
	return 0;
}

int
elf_image_load(const char *path, struct elf_image *img, char *why, size_t whylen)
{
	struct stat st;
	GElf_Ehdr eh;
	Elf *e;
	int fd, r = -1, err;

	memset(img, 0, sizeof *img);
	img->table = "";
	if (elf_version(EV_CURRENT) == EV_NONE)
		return elf_fail(why, whylen, ENOSYS, path, "libelf is out of date");
	/* Only a regular file: opening a mapped device (a GPU's, /dev/zero) can do things. */
	if (stat(path, &st) < 0) {
		err = errno;
		return elf_fail(why, whylen, err, path, strerror(err));
	}
	if (!S_ISREG(st.st_mode))
		return elf_fail(why, whylen, ENOEXEC, path, "not a regular file");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		return elf_fail(why, whylen, err, path, strerror(err));
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF || gelf_getehdr(e, &eh) == NULL) {
		elf_fail(why, whylen, ENOEXEC, path, "not an ELF file");
	} else {
		img->type = eh.e_type;
		elf_segments(e, img);
		if (elf_sections(e, img) == 0)
			r = 0;
		else
			elf_fail(why, whylen, ENOMEM, path, "out of memory for its symbols");
	}
	err = errno;
	if (e != NULL)
		elf_end(e);
	close(fd);
	if (r < 0) {
		elf_image_free(img);
		errno = err;
	}
	return r;
}
#else
int
elf_image_load(const char *path, struct elf_image *img, char *why, size_t whylen)
{
	memset(img, 0, sizeof *img);
	img->table = "";
	snprintf(why, whylen, "%s: built without libelf, so no symbols", path);
	errno = ENOSYS;
	return -1;
}
#endif

/* The reflected IEEE CRC-32 table, made on first use. */
static uint32_t crc_table[256];

static void
crc_table_make(void)
{
	uint32_t c, i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

int
elf_file_crc(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	uint32_t c = 0xffffffffu;
	size_t n, i;
	FILE *f;
	int err;

	if (crc_table[1] == 0)
		crc_table_make();
	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		for (i = 0; i < n; i++)
			c = crc_table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err != 0) {
		errno = err;
		return -1;
	}
	*crc = c ^ 0xffffffffu;
	return 0;
}

void
elf_image_free(struct elf_image *img)
{
	symtab_free(&img->syms);
	memset(img, 0, sizeof *img);
	img->table = "";
}

int
elf_mapping_bias(const struct elf_image *img, uint64_t start, uint64_t len, uint64_t off,
		 uint64_t *bias)
{
	const struct elf_segment *g = NULL, *s;
	int i;

	for (i = 0; i < img->nseg && g == NULL; i++) {
		s = &img->seg[i];
		if (s->filesz > 0 && s->offset >= off && s->offset - off < len)
			g = s;
	}
	for (i = 0; i < img->nseg && g == NULL; i++) {
		s = &img->seg[i];
		if (off >= s->offset && off - s->offset < s->filesz)
			g = s;
	}
	if (g == NULL)
		return -1;
	/* The file byte X of the segment is at bias + vaddr + (X - offset). */
	*bias = start - off + g->offset - g->vaddr;
	return 0;
}

int
elf_vaddr_loaded(const struct elf_image *img, uint64_t v)
{
	int i;

	for (i = 0; i < img->nseg; i++)
		if (v >= img->seg[i].vaddr && v - img->seg[i].vaddr < img->seg[i].memsz)
			return 1;
	return 0;
}

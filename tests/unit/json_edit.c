/* SPDX-License-Identifier: BSD-2-Clause */
/* A session's JSON with one member changed, and the snapshot loader's word on it (json_edit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "json_edit.h"

void
json_edit(json_t *root, const char *path, json_t *v)
{
	char buf[256], *tok, *save, *next;
	json_t *obj = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok != NULL; tok = next) {
		if ((next = strtok_r(NULL, ".", &save)) == NULL)
			break;
		obj = json_is_array(obj) ? json_array_get(obj, (size_t)atoi(tok))
					 : json_object_get(obj, tok);
	}
	if (v == NULL)
		json_object_del(obj, tok);
	else if (json_is_array(obj))
		json_array_set_new(obj, (size_t)atoi(tok), v);
	else
		json_object_set_new(obj, tok, v);
}

void
snapshot_error(const struct session *s, const char *path, json_t *v, char *err, size_t len)
{
	json_t *root = session_json_labelled(s, NULL, NULL);
	struct session got;
	char *text;

	json_edit(root, path, v);
	text = json_dumps(root, JSON_INDENT(2));
	snprintf(err, len, "(the session has no JSON text)");
	if (text != NULL) {
		err[0] = '\0';
		snapshot_parse(text, strlen(text), "x.json", &got, err, len);
	} else
		session_init(&got);
	session_free(&got);
	free(text);
	json_decref(root);
}

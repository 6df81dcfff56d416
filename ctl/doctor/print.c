// SPDX-License-Identifier: GPL-2.0
/*
 * Printing the doctor's findings, worst first. Both formats are stable.
 *
 * TEXT: a summary line, then per finding a line "SEVERITY  ID  DEV: what",
 * DEV being "host" for host-wide findings, and indented lines with the
 * evidence (key=value) and the fix:
 *
 *   doctor over 3.0 s: 1 error, 1 warning, 0 info
 *   error    nic-drops  igb0: the NIC dropped 812 packets in 3.0 s (rx_missed_errors +812)
 *            evidence: dropped=812 counter=rx_missed_errors counter_dropped=812 ring=64 ...
 *            fix: ethtool -G igb0 rx 4096
 *
 * "fix (applied): " replaces "fix: " for what --fix did.
 *
 * JSON (-j): one object, {"interval_ms": 3000, "errors": 1, "warnings": 1,
 * "infos": 0, "findings": [{"id", "severity", "ifname" (null: the host),
 * "summary", "evidence": {key: number or CPU/IRQ list string}, "fix" (null
 * when none), "fixed"}]}.
 */
#include "doctor/doctor.h"
#include "json.h"

static void counts(const struct doc_findings *fs, unsigned int n[3])
{
	unsigned int i;

	n[DOC_INFO] = n[DOC_WARNING] = n[DOC_ERROR] = 0;
	for (i = 0; i < fs->nr; i++)
		n[fs->f[i].severity]++;
}

static void print_facts(FILE *f, const struct doc_finding *d)
{
	unsigned int i;

	if (!d->nr_facts)
		return;
	fputs("           evidence:", f);
	for (i = 0; i < d->nr_facts; i++) {
		if (d->facts[i].str)
			fprintf(f, " %s=%s", d->facts[i].key, d->facts[i].str);
		else
			fprintf(f, " %s=%lld", d->facts[i].key, d->facts[i].num);
	}
	fputc('\n', f);
}

int doc_print_text(FILE *f, const struct doc_findings *fs)
{
	const struct doc_finding *d;
	unsigned int i, n[3];

	counts(fs, n);
	fprintf(f, "doctor over %.1f s: %u error%s, %u warning%s, %u info\n", fs->span_ns / 1e9,
		n[DOC_ERROR], n[DOC_ERROR] == 1 ? "" : "s", n[DOC_WARNING],
		n[DOC_WARNING] == 1 ? "" : "s", n[DOC_INFO]);
	for (i = 0; i < fs->nr; i++) {
		d = &fs->f[i];
		fprintf(f, "%-8s %s  %s: %s\n", doc_severity_name(d->severity), d->id,
			d->dev ?: "host", d->text);
		print_facts(f, d);
		if (d->fix)
			fprintf(f, "           fix%s: %s\n", d->fixed ? " (applied)" : "", d->fix);
	}
	return ferror(f) ? -1 : 0;
}

static void json_finding(struct json *j, const struct doc_finding *d)
{
	unsigned int i;

	json_obj_begin(j, NULL);
	json_str(j, "id", d->id);
	json_str(j, "severity", doc_severity_name(d->severity));
	if (d->dev)
		json_str(j, "ifname", d->dev);
	else
		json_null(j, "ifname");
	json_str(j, "summary", d->text);
	json_obj_begin(j, "evidence");
	for (i = 0; i < d->nr_facts; i++) {
		if (d->facts[i].str)
			json_str(j, d->facts[i].key, d->facts[i].str);
		else
			json_int(j, d->facts[i].key, d->facts[i].num);
	}
	json_obj_end(j);
	if (d->fix)
		json_str(j, "fix", d->fix);
	else
		json_null(j, "fix");
	json_bool(j, "fixed", d->fixed);
	json_obj_end(j);
}

static int write_doc(struct json *j, const void *arg)
{
	const struct doc_findings *fs = arg;
	unsigned int i, n[3];

	counts(fs, n);
	json_obj_begin(j, NULL);
	json_int(j, "interval_ms", fs->span_ns / 1000000);
	json_int(j, "errors", n[DOC_ERROR]);
	json_int(j, "warnings", n[DOC_WARNING]);
	json_int(j, "infos", n[DOC_INFO]);
	json_arr_begin(j, "findings");
	for (i = 0; i < fs->nr; i++)
		json_finding(j, &fs->f[i]);
	json_arr_end(j);
	json_obj_end(j);
	return 0;
}

int doc_print_json(FILE *f, const struct doc_findings *fs)
{
	return json_print_doc(f, write_doc, fs);
}

// SPDX-License-Identifier: GPL-2.0
/* The JSON writer: structure, separators and string escaping. */
#include <stdlib.h>

#include "kselftest_harness.h"

#include "json.h"

FIXTURE(doc) {
	char *text;
	size_t size;
	FILE *f;
	struct json j;
};

FIXTURE_SETUP(doc)
{
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	ASSERT_NE(NULL, self->f);
	json_start(&self->j, self->f);
}

FIXTURE_TEARDOWN(doc)
{
	free(self->text);
}

/* Finish the document and return its text. */
static const char *text(FIXTURE_DATA(doc) *self)
{
	fclose(self->f);
	return self->text;
}

static void write_nested(struct json *j)
{
	json_arr_begin(j, NULL);
	json_obj_begin(j, NULL);
	json_str(j, "s", "x");
	json_arr_begin(j, "empty");
	json_arr_end(j);
	json_arr_begin(j, "ints");
	json_int(j, NULL, 1);
	json_int(j, NULL, 2);
	json_arr_end(j);
	json_obj_end(j);
	json_obj_begin(j, NULL);
	json_obj_end(j);
	json_arr_end(j);
}

/* -p: a member per line, two spaces a level, empty containers closed at once. */
TEST_F(doc, pretty_indents_each_member)
{
	json_pretty = true;
	json_start(&self->j, self->f);
	json_pretty = false;
	write_nested(&self->j);
	EXPECT_STREQ("[\n"
		     "  {\n"
		     "    \"s\": \"x\",\n"
		     "    \"empty\": [],\n"
		     "    \"ints\": [\n"
		     "      1,\n"
		     "      2\n"
		     "    ]\n"
		     "  },\n"
		     "  {}\n"
		     "]", text(self));
}

TEST_F(doc, compact_by_default)
{
	write_nested(&self->j);
	EXPECT_STREQ("[{\"s\":\"x\",\"empty\":[],\"ints\":[1,2]},{}]", text(self));
}

TEST_F(doc, nesting_and_separators)
{
	json_arr_begin(&self->j, NULL);
	json_obj_begin(&self->j, NULL);
	json_str(&self->j, "s", "x");
	json_int(&self->j, "i", -1);
	json_bool(&self->j, "t", true);
	json_bool(&self->j, "f", false);
	json_null(&self->j, "n");
	json_str(&self->j, "ns", NULL);
	json_arr_begin(&self->j, "empty");
	json_arr_end(&self->j);
	json_arr_begin(&self->j, "ints");
	json_int(&self->j, NULL, 1);
	json_int(&self->j, NULL, 2);
	json_arr_end(&self->j);
	json_obj_end(&self->j);
	json_obj_begin(&self->j, NULL);
	json_obj_end(&self->j);
	json_arr_end(&self->j);
	EXPECT_STREQ("[{\"s\":\"x\",\"i\":-1,\"t\":true,\"f\":false,\"n\":null,\"ns\":null,"
		     "\"empty\":[],\"ints\":[1,2]},{}]", text(self));
}

TEST_F(doc, escapes_quotes_backslashes_and_controls)
{
	json_str(&self->j, NULL, "a\"b\\c\nd\te\x01\x1f\x7f/");
	EXPECT_STREQ("\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f\x7f/\"", text(self));
}

TEST_F(doc, keys_are_escaped_too)
{
	json_obj_begin(&self->j, NULL);
	json_int(&self->j, "k\"", 1);
	json_obj_end(&self->j);
	EXPECT_STREQ("{\"k\\\"\":1}", text(self));
}

TEST_F(doc, valid_utf8_passes)
{
	/* é, €, U+10348, and the extremes U+0080, U+FFFF, U+10FFFF */
	json_str(&self->j, NULL, "\xc3\xa9\xe2\x82\xac\xf0\x90\x8d\x88\xc2\x80\xef\xbf\xbf"
		 "\xf4\x8f\xbf\xbf");
	EXPECT_STREQ("\"\xc3\xa9\xe2\x82\xac\xf0\x90\x8d\x88\xc2\x80\xef\xbf\xbf"
		     "\xf4\x8f\xbf\xbf\"", text(self));
}

TEST_F(doc, invalid_utf8_becomes_replacement_characters)
{
	json_arr_begin(&self->j, NULL);
	json_str(&self->j, NULL, "\xff");		/* never valid */
	json_str(&self->j, NULL, "\xc0\xaf");		/* overlong '/' */
	json_str(&self->j, NULL, "\xed\xa0\x80");	/* a UTF-16 surrogate */
	json_str(&self->j, NULL, "\xe2\x82");		/* cut short */
	json_str(&self->j, NULL, "\xf4\x90\x80\x80");	/* above U+10FFFF */
	json_str(&self->j, NULL, "a\x80z");		/* a stray continuation byte */
	json_arr_end(&self->j);
	EXPECT_STREQ("[\"\\ufffd\",\"\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\","
		     "\"\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\\ufffd\",\"a\\ufffdz\"]",
		     text(self));
}

TEST_HARNESS_MAIN

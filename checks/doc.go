// Package checks is the library of task checks: their validation in Go, the
// Python that runs them inside the sandbox, and their compilation into
// PyBench-style unit tests.
//
// A check is a schemas.Check whose kind selects the fields it may use:
//
//	answer  contains_all, contains_any, regex, number{value, rel_tol, abs_tol}
//	file    path, exists, min_bytes, type
//	table   path, rows, columns_include, no_duplicates, no_nulls, no_iqr_outliers, sorted_by
//	image   path, width, height, mode, compare{ref, transform, min_similarity},
//	        brighter_than, darker_than, sharper_than
//	audio   path, duration{min, max}, louder_than, quieter_than, shorter_than
//	pickle  path, has_method
//	text    path, contains_all, contains_any, regex, number, min_bytes
//	python  code
//
// Paths are relative to the rollout's workspace (output/3.csv, data/a.png).
// Validate rejects an unknown kind, a field the kind does not take, a missing
// path and a bad tolerance, naming the task and the check's index; DecodeTask
// also rejects unknown JSON fields.
//
// The Python side (checks.py, embedded as Library) reads the final answer as
// the text after "Finished:" when there is one. Numbers in answers match
// with tolerance and common formatting: 1,234.5, 1.2345e3, 12% (also read as
// 0.12). Image compare applies the stated transform (rotate:DEG
// counterclockwise, rotate90, flip_h, flip_v, grayscale, crop:x,y,w,h,
// resize:w,h, joined by |) to the reference and compares the two by the
// correlation of 64x64 grayscale thumbnails; a grayscale transform also
// requires the output to have no colour. Python checks run their asserts with
// answer, messages and the library's helpers in scope: read_table,
// find_column, iqr_bounds, numbers_in, number_close, read_text,
// html_elements, load_module, open_image, similarity, apply_transform,
// is_gray, brightness, contrast, sharpness, read_audio, duration,
// loudness_db, sniff_type.
//
// Verify runs checks in a sandbox and returns one result per check; TestsPy
// writes the same library and checks as test_task_<index>(trajectory)
// functions, which give the same verdicts.
package checks

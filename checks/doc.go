// Package checks is the library of task checks: their validation in Go, the
// Python that runs them inside the sandbox, and their compilation into
// PyBench-style unit tests.
//
// A check is a schemas.Check whose kind selects the fields it may use:
//
//	answer  contains_all, contains_any, none_of, regex, number{value, rel_tol, abs_tol}
//	file    path, exists, min_bytes, type
//	table   path, rows, columns_include, no_duplicates, no_nulls, no_iqr_outliers, sorted_by
//	image   path, width, height, mode, compare{ref, transform, min_similarity},
//	        brighter_than, darker_than, sharper_than
//	audio   path, duration{min, max}, louder_than, quieter_than, shorter_than
//	pickle  path, has_method
//	text    path, contains_all, contains_any, none_of, regex, number, min_bytes
//	python  code
//
// Paths are relative to the rollout's workspace (output/3.csv, data/a.png).
// Validate rejects an unknown kind, a field the kind does not take, a missing
// path and a bad tolerance, naming the task and the check's index; DecodeTask
// also rejects unknown JSON fields.
//
// The Python side (checks.py, embedded as Library) reads the final answer as
// the text after "Finished:" when there is one. The numbers an answer
// states are its candidates (not those inside words or file names); they
// match with tolerance and common formatting: 1,234.5, 1.2345e3, 12% (also
// read as 0.12). When a case carries the rollout's printed output
// (Case.Observations), a number an answer check relies on must be among the
// numbers printed, up to rounding: the rule only adds failures, and
// Unsupported recognises its message. An answer stating more than max(8, 3 x the numbers the
// task asks for) fails every answer check, as does one listing every option
// of a contains_any of three or more, or naming a none_of option. Image compare applies the stated transform (rotate:DEG
// counterclockwise, rotate90, flip_h, flip_v, grayscale, crop:x,y,w,h,
// resize:w,h, joined by |) to the reference and compares the two by the
// correlation of 64x64 grayscale thumbnails; a grayscale transform also
// requires the output to have no colour. Python checks run their asserts with
// answer, messages and the library's helpers in scope: read_table,
// find_column, iqr_bounds, numbers_in, number_close, close_as_written,
// written_cell, pandas_names, read_text,
// html_elements, load_module, open_image, similarity, apply_transform,
// is_gray, flatten, has_alpha, brightness, contrast, sharpness, read_audio, duration,
// loudness_db, audio_match, level_db, sniff_type, candidates, load_pickle,
// and the chart helpers of charts.py (figure_record, chart_bars, chart_pie,
// chart_hist, chart_line, chart_scatter, chart_matrix, chart_boxes,
// chart_profiles, chart_words), which judge a saved chart by the record the
// figure recorder (FigureRecorder, figures.py) wrote when it was saved.
// load_module and load_pickle run the produced file in a disposable child
// process and return plain values or RemoteObject handles.
//
// Verify runs cases (checks, answer, files) in one fresh sandbox, isolated
// from the rollout that made them, and returns one result per check;
// TestsPy writes the same library and checks as test_task_<index>(trajectory)
// functions, which give the same verdicts. docs/CHECKS.md states the rules.
package checks

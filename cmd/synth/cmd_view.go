package main

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/view"
)

func init() { register(newViewCmd) }

type viewFlags struct {
	out   string
	copy  bool
	serve string
}

func newViewCmd() *cobra.Command {
	var f viewFlags
	cmd := &cobra.Command{
		Use:   "view PATH [PATH2] -o SITE",
		Short: "Write a static web site to read a run, a dataset or eval results",
		Long: `view writes a web site to read what synth made, one page per trajectory.
It opens from disk (SITE/index.html) with no server, or --serve serves it.

PATH is one of:
  a run directory (synth build -o)   every rollout of trajectories.jsonl, with
                                      its task, input files and artifacts, and
                                      whether the filters kept it
  a dataset folder (RUN/dataset, or a folder of Parquet under data/)
                                      every row; inside a run, each row's page is
                                      its trajectory's in the run
  eval results (synth eval -o)        every rollout of results.jsonl, with the
                                      benchmark's task and input files
Two eval results folders (PATH PATH2) are shown side by side, one page per
task and sample.

The index shows the run's funnel and figures at the top, filters (category,
generator, teacher, verdict, failure reason, turns, file type, stop reason,
filter) and a search over the queries. A trajectory page shows the query,
previews of the input files, every message (code highlighted, observations
as the model saw them), the artifacts inline (images, audio and video
players, CSV and XLSX as tables, HTML in a sandboxed frame without scripts)
and the verdict with each check's message.

Everything the rollouts wrote is shown as data: pages run only the site's
own scripts (a Content-Security-Policy says so), text is inserted as text,
SVG only as an image, HTML only in a frame with scripts off.

Input files and artifacts are linked from PATH by relative paths, so keep the
site beside the run or use --copy (copies them into SITE/media). Pages and
the index load their data in small files, so a run of 100,000 trajectories
opens at once; the search covers the first 1,000 characters of each query.
SITE must be new, empty, or a site synth view wrote (it is replaced).

Fonts: the site brings none. Chinese queries need a CJK font where the site is
read: it asks for Noto Sans CJK SC, Source Han Sans SC, PingFang SC, Hiragino
Sans GB, Microsoft YaHei or WenQuanYi Micro Hei, in that order (Debian and
Ubuntu: apt-get install fonts-noto-cjk). Without one they show as boxes.`,
		Example: `  synth view out -o site                       # a run; open site/index.html
  synth view out/dataset -o site               # its dataset rows
  synth view results -o site --serve :8080     # eval results, served on a local port
  synth view results-a results-b -o cmp        # two evals side by side
  synth view out -o site --copy                # a site that stands alone`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || len(args) > 2 {
				return usagef("view needs one PATH (a run, dataset or eval results folder) or two eval results folders; got %d", len(args))
			}
			if f.out == "" {
				return usagef("view needs -o SITE: the folder to write the site into")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runView(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "out", "o", "", "write the site into `SITE`")
	fl.BoolVar(&f.copy, "copy", false, "copy input files and artifacts into the site instead of linking them")
	fl.StringVar(&f.serve, "serve", "", "then serve the site on `ADDR` (e.g. localhost:8080 or :0) until interrupted")
	return cmd
}

func runView(cmd *cobra.Command, args []string, f viewFlags) error {
	res, err := view.Build(cmd.Context(), view.Options{Inputs: args, Out: f.out, Copy: f.copy, Log: cmd.ErrOrStderr()})
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "%d pages written to %s\nopen %s\n", res.Pages, res.Out, (&url.URL{Scheme: "file", Path: filepath.ToSlash(res.Index)}).String())
	if f.serve == "" {
		return nil
	}
	return view.Serve(cmd.Context(), res.Out, f.serve, func(a net.Addr) {
		fmt.Fprintf(out, "serving at http://%s/ (Ctrl-C stops)\n", a)
	})
}

package main

import (
	"github.com/spf13/cobra"

	"synth/pipeline"
)

func init() { register(newCollectCmd) }

func newCollectCmd() *cobra.Command {
	var f buildFlags
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "collect [-o DIR] [-c FILE]",
		Short: "Collect files from sources into a run directory, or list what would be collected",
		Long: `collect runs only the first stage of synth build: it fetches files from each
source into the run directory's content-addressed store and its manifest
(files.jsonl), with where each came from and under what license. Identical
content is stored once; each later arrival adds one short line to the
manifest ({"duplicate_of": ID, "source": ...}). A later synth build with the
same settings and -o goes on from there.

Sources:
  sample          the built-in corpus (no network)
  local:PATH      a folder; follows no symlink out of it
  kaggle:QUERY    Kaggle datasets matching QUERY (credentials: KAGGLE_API_TOKEN with a token
                  from kaggle.com/settings, ~/.kaggle/access_token, credentials.json,
                  kaggle.json or KAGGLE_USERNAME/KAGGLE_KEY; synth doctor says which it found)
  kaggle:OWNER/DATASET
                  one dataset, as in kaggle.com/datasets/OWNER/DATASET
  kaggle:competition/SLUG
                  a competition's data files (accept its rules on kaggle.com first)
  arxiv:QUERY     arXiv papers; QUERY goes to arXiv as written, e.g.
                  'arxiv:cat:cs.CL AND "tool use"' or 'arxiv:agents OR robots'
                  (PDFs; 3 s between requests to each host; sources.contact in the User-Agent)

The sources section of synth.yaml (synth init) sets limits, file types, globs
and per-source options: sources.idle_timeout (how long a download may receive
nothing before it is resumed; 60s), sources.contact, and the servers
(sources.kaggle.base_url, legacy_url; sources.arxiv.base_url, oai_url).`,
		Example: `  synth collect --source kaggle:titanic --license CC0-1.0 --dry-run
  synth collect --source local:./files --source sample -o out
  synth build -o out --source local:./files --source sample    # goes on from the collection`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := resolveConfig(cmd, f)
			if err != nil {
				return err
			}
			if dryRun {
				return pipeline.ListSources(cmd.Context(), cfg, cmd.OutOrStdout())
			}
			expect, err := expectedFiles(f)
			if err != nil {
				return err
			}
			sum, err := pipeline.Collect(cmd.Context(), cfg, pipeline.Options{Out: f.out, Version: version, Log: cmd.ErrOrStderr(), Expect: expect})
			if err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), sum)
			return nil
		},
	}
	addSourceFlags(cmd, &f)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "list what would be collected, with sizes and licenses; download nothing")
	return cmd
}

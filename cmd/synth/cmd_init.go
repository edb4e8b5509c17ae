package main

import (
	"errors"
	"fmt"
	"os"

	"synth/config"

	"github.com/spf13/cobra"
)

func init() { register(newInitCmd) }

func newInitCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [FILE]",
		Short: "Write a commented starter config (synth.yaml)",
		Long: `init writes a config file that lists every setting of synth build with its
default and a comment, ready to edit. Use it with: synth build --config FILE.`,
		Example: `  synth init                 # writes ./synth.yaml
  synth init my-run.yaml
  synth build -o out --config synth.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "synth.yaml"
			if len(args) == 1 {
				path = args[0]
			}
			flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(path, flag, 0o644)
			if errors.Is(err, os.ErrExist) {
				return usagef("%s exists: edit it, or pass --force to overwrite it", path)
			}
			if err != nil {
				return err
			}
			if _, err := f.WriteString(config.Starter); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s; run: synth build -o out --config %s\n", path, path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}

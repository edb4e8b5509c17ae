// Package arrowexport writes a synth dataset as the folder Hugging Face
// datasets' Dataset.save_to_disk writes, so datasets.load_from_disk opens it
// without conversion: Arrow IPC stream files data-0000i-of-0000N.arrow,
// dataset_info.json (the features) and state.json (the data files, the
// fingerprint, no format and the split).
//
// It is the one package that links Apache Arrow Go, so the rest of synth
// does not.
package arrowexport

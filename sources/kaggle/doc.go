// Package kaggle is the source that searches Kaggle's public REST API
// (api/v1) for datasets, lists and downloads their files, unpacks them
// safely and records each file's dataset, version, URL, license and title.
package kaggle

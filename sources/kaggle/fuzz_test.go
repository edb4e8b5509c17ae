package kaggle

import "testing"

// FuzzDecode feeds an API response, untrusted bytes off the network, to
// every decoder of Kaggle's replies.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"datasets":[{"ref":"o/d","title":"T","totalBytes":10}],"nextPageToken":"x"}`))
	f.Add([]byte(`[{"ref":"o/d"}]`))
	f.Add([]byte(`{"datasetFiles":[{"name":"a.csv","totalBytes":3}]}`))
	f.Add([]byte(`{"ref":"titanic","title":"Titanic","rules":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		decodeSearch("datasets/list", raw)
		decodeDataset("datasets/view", raw)
		decodeFiles("datasets/files", raw)
		decodeCompetition("competitions/get", raw)
	})
}

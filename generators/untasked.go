package generators

import "synth/schemas"

// Why a collected file got no task: the reasons an Explainer gives.
const (
	ReasonUnsupportedType = "unsupported_type" // no template reads files of its type
	ReasonUnusable        = "unusable"         // it cannot be read as its type, or is too small for any template
	ReasonExcluded        = "excluded"         // tasks.templates leaves out every template that reads its type
	ReasonModuleMissing   = "module_missing"   // the sandbox's Python lacks a module its type or templates need
	ReasonNoTemplateFits  = "no_template_fits" // the templates for its type found no question to ask of it
)

// Untasked is a collected file a generator wrote no task for, and why.
type Untasked struct {
	File   schemas.File
	Reason string // one of the Reason words
	Detail string // what the reason is about: the read error, the module and how to install it
}

// Explainer is a Generator that says why files got no task. Untasked is
// called after Generate returns and covers the files of that call, in
// their order.
type Explainer interface {
	Untasked() []Untasked
}

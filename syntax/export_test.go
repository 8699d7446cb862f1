package syntax

// OldTypeNames exposes oldTypeNames to the external tests.
var OldTypeNames = oldTypeNames

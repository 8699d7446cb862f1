package runtime

// MaxAnswerBytes is maxAnswerBytes, for the external tests.
const MaxAnswerBytes = maxAnswerBytes

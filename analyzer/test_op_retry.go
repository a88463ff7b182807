package analyzer

// checkTestOpRetry is not written yet.
func checkTestOpRetry(ck *checker) {}

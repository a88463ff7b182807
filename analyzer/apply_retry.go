package analyzer

// checkApplyRetry is not written yet.
func checkApplyRetry(ck *checker) {}

package analyzer

// checkUnboundedRetry is not written yet.
func checkUnboundedRetry(ck *checker) {}

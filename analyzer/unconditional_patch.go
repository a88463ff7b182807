package analyzer

// checkUnconditionalPatch is not written yet.
func checkUnconditionalPatch(ck *checker) {}

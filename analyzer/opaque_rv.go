package analyzer

// checkOpaqueRV is not written yet.
func checkOpaqueRV(ck *checker) {}

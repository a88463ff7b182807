package analyzer

// MaxInstrs is the cap on the size of a function analysed, in SSA
// instructions.
const MaxInstrs = maxInstrs

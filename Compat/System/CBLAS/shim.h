// OpenBLAS ships cblas.h (with openblas_set_num_threads) but no module map.
#include <cblas.h>

#include "routing/ugal.h"

namespace icnsim {

IntKey UgalChoice::declareThreshold(KeyScope scope) {
  return declareInt(scope, "threshold", 0, 0, 1 << 20,
                    "flit-hops (a queue in flits times router hops): the minimal path is kept unless q_min H_min > "
                    "q_val H_val + threshold");
}

}  // namespace icnsim

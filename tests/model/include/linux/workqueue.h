#include <rqmodel.h>

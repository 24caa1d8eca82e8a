/* Compiled on its own with -std=c99 -Wall -Wextra -Werror -pedantic: the public C header is
 * plain C99 and includes nothing from C++. */
#include "spindrift/spindrift.h"

int spindrift_header_c99_check(void);
int spindrift_header_c99_check(void) {
    spindrift_draw_batch batch;
    spindrift_instance_desc desc;
    batch.particle_length = 0;
    desc.struct_size = sizeof desc;
    return (int)(batch.particle_length + desc.struct_size + SPINDRIFT_HEADER_VERSION);
}

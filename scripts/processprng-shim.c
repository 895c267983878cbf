/* A stand-in bcryptprimitives.dll for Wine 8, which lacks ProcessPrng,
 * the random source Rust's standard library imports on Windows (SPEC
 * §20.1). It fills the buffer from RtlGenRandom (advapi32's
 * SystemFunction036). Built and installed by scripts/wine-test.sh into a
 * private Wine prefix only; never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}

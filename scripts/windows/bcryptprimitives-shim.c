/* Test-only stand-in for bcryptprimitives.dll under Wine 8 (Debian 12), which lacks it.
 * Rust's std (1.78 and later) takes its random numbers from ProcessPrng in that DLL;
 * every Windows 10 and later has it, so nothing here is shipped to users.
 * scripts/test-windows.sh builds it with MinGW and puts it in the Wine prefix only. */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom (advapi32's SystemFunction036) */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!RtlGenRandom(data, n)) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}

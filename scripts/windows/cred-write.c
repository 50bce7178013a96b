/* Test-only (scripts/test-windows.sh), never shipped: keeps SECRET in the Credential
 * Manager as the keyring crate (windows-native) does for service SERVICE and account
 * USER: a generic credential named "USER.SERVICE", the secret as UTF-16 without its NUL.
 *   cred-write.exe SERVICE USER SECRET */
#include <windows.h>
#include <wincred.h>
#include <wchar.h>

int wmain(int argc, wchar_t **argv) {
    if (argc != 4) return 2;
    wchar_t target[512];
    swprintf(target, 512, L"%ls.%ls", argv[2], argv[1]);
    CREDENTIALW credential = {0};
    credential.Type = CRED_TYPE_GENERIC;
    credential.TargetName = target;
    credential.UserName = argv[2];
    credential.CredentialBlobSize = (DWORD)(wcslen(argv[3]) * sizeof(wchar_t));
    credential.CredentialBlob = (LPBYTE)argv[3];
    credential.Persist = CRED_PERSIST_ENTERPRISE;
    return CredWriteW(&credential, 0) ? 0 : 1;
}

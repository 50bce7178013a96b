/* Test-only (scripts/test-windows.sh), never shipped: closes the top-level window
 * titled argv[1], as a click on its X would, so the test sees what the app does next.
 * Waits up to 20 s for it; exit code 0 when it was found. */
#include <windows.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    for (int i = 0; i < 100; i++) {
        HWND window = FindWindowA(NULL, argv[1]);
        if (window) {
            PostMessageA(window, WM_CLOSE, 0, 0);
            return 0;
        }
        Sleep(200);
    }
    return 1;
}

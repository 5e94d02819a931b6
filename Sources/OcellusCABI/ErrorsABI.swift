// The header's "Status codes and errors" section (LastError.swift keeps the thread's message).
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

private let statusNames: [Int32: CString] = [
    0: CString("OC_OK"), -1: CString("OC_ERROR_INVALID_ARGUMENT"), -2: CString("OC_ERROR_INVALID_HANDLE"),
    -3: CString("OC_ERROR_BACKEND_UNAVAILABLE"), -4: CString("OC_ERROR_NOT_FOUND"),
    -5: CString("OC_ERROR_WRONG_STATE"), -6: CString("OC_ERROR_TIMEOUT"), -7: CString("OC_ERROR_NO_RESOURCES"),
    -8: CString("OC_ERROR_BUSY"), -9: CString("OC_ERROR_DISCONNECTED"), -10: CString("OC_ERROR_IO"),
    -11: CString("OC_ERROR_LIBRARY_UNAVAILABLE"), -12: CString("OC_ERROR_PERMISSION_DENIED"), -99: CString("OC_ERROR_OTHER")
]

private let unknownStatusName = CString("OC_ERROR_UNKNOWN")

@c @implementation public func oc_status_name(_ status: oc_status) -> UnsafePointer<CChar>? {
    UnsafePointer((statusNames[status] ?? unknownStatusName).pointer)
}

@c @implementation public func oc_last_error_message() -> UnsafePointer<CChar>? {
    LastError.message
}

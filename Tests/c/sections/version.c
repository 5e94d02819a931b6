/* The C suite: Version. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh version`. */

/* ---- tests ---- */

static int test_version(void)
{
    CHECK(strcmp(oc_version(), OCELLUS_VERSION_STRING) == 0);
    CHECK(strcmp(oc_status_name(OC_ERROR_INVALID_HANDLE), "OC_ERROR_INVALID_HANDLE") == 0);
    CHECK(strcmp(oc_status_name(12345), "OC_ERROR_UNKNOWN") == 0);
    return 0;
}

/* The C suite: Context. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh context`. */

static int test_invalid_app_ids(void)
{
    char long_id[301];
    memset(long_id, 'a', 300);
    long_id[300] = 0;
    const char *bad[] = { "../x", "", long_id, ".hidden", "a/b", "sp ace" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        oc_context *ctx = (oc_context *)1;
        CHECK(oc_context_create(bad[i], NULL, &ctx) == OC_ERROR_INVALID_ARGUMENT);
        CHECK(ctx == NULL);
        CHECK(strstr(oc_last_error_message(), "app ID") != NULL);
    }
    oc_context *ctx = NULL;
    CHECK(oc_context_create(NULL, NULL, &ctx) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_create("org.ok", NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_context_options options = { .struct_size = 2 };
    CHECK(oc_context_create("org.ok", &options, &ctx) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "oc_context_options_init") != NULL);
    return 0;
}

static int test_state_directory_resolution(void)
{
    oc_context_options options;
    oc_context_options_init(&options);
    options.state_directory = "/tmp/ocellus-c-state";
    oc_context *ctx = NULL;
    CHECK(oc_context_create("org.ocellus.test.c", &options, &ctx) == OC_OK);
    CHECK(strcmp(oc_context_state_directory(ctx), "/tmp/ocellus-c-state") == 0);
    oc_context_destroy(ctx);
    CHECK(oc_context_state_directory(ctx) == NULL);
    setenv("OCELLUS_STATE_DIR", "/tmp/ocellus-env-state", 1);
    CHECK(oc_context_create("org.ocellus.test.c", NULL, &ctx) == OC_OK);
    unsetenv("OCELLUS_STATE_DIR");
    CHECK(strcmp(oc_context_state_directory(ctx), "/tmp/ocellus-env-state") == 0);
    oc_context_destroy(ctx);
    return 0;
}

static int test_unreachable_remote_fails_fast(void)
{
    oc_context_options options;
    oc_context_options_init(&options);
    options.pipewire_remote = "/nonexistent/ocellus/pipewire-0";
    oc_context *ctx = (oc_context *)1;
    double start = now_ms();
    CHECK(oc_context_create("org.ocellus.test.c", &options, &ctx) == OC_ERROR_BACKEND_UNAVAILABLE);
    CHECK(now_ms() - start < 1000);
    CHECK(ctx == NULL);
    CHECK(strstr(oc_last_error_message(), "/nonexistent/ocellus/pipewire-0") != NULL);
    return 0;
}

/* example_forward: one transposed convolution on the CPU with the public C API.
 *
 * Same layer as torch.nn.ConvTranspose1d(8, 6, kernel_size=4, stride=2, padding=1,
 * output_padding=1, dilation=1, groups=2, bias=True) on an input of shape (2, 8, 50).
 * Prints the output shape and a checksum, and checks every element against a direct loop.
 *
 * Build: cc example_forward.c -I<prefix>/include -L<prefix>/lib -lconvt1d -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "convt1d.h"

int main(void) {
    convt1d_params p = convt1d_params_make(/*batch*/ 2, /*in_channels*/ 8, /*out_channels*/ 6,
                                           /*in_length*/ 50, /*kernel_size*/ 4);
    p.stride = 2;
    p.padding = 1;
    p.output_padding = 1;
    p.groups = 2;

    /* Validation gives the output length and every tensor's element count. */
    int64_t out_len, nx, nw, ny;
    if (convt1d_tensor_sizes(&p, &nx, &nw, &ny) != CONVT1D_SUCCESS ||
        convt1d_output_length(&p, &out_len) != CONVT1D_SUCCESS) {
        fprintf(stderr, "invalid parameters: %s\n", convt1d_last_error());
        return 1;
    }

    float *x = malloc(sizeof(float) * (size_t)nx);                /* [N, C_in, L_in]         */
    float *w = malloc(sizeof(float) * (size_t)nw);                /* [C_in, C_out/groups, K] */
    float *b = malloc(sizeof(float) * (size_t)p.out_channels);    /* [C_out]                 */
    float *y = malloc(sizeof(float) * (size_t)ny);                /* [N, C_out, L_out]       */
    if (!x || !w || !b || !y) return 1;
    for (int64_t i = 0; i < nx; i++) x[i] = (float)sin(0.1 * (double)i);
    for (int64_t i = 0; i < nw; i++) w[i] = (float)cos(0.3 * (double)i) / 4;
    for (int64_t i = 0; i < p.out_channels; i++) b[i] = 0.01f * (float)i;

    convt1d_status st = convt1d_forward_cpu(&p, CONVT1D_F32, x, w, b, y, /*num_threads: all*/ 0);
    if (st != CONVT1D_SUCCESS) {
        fprintf(stderr, "convt1d_forward_cpu: %s: %s\n", convt1d_status_string(st), convt1d_last_error());
        return 1;
    }

    double checksum = 0;
    for (int64_t i = 0; i < ny; i++) checksum += y[i];
    printf("output shape: (%lld, %lld, %lld)\n", (long long)p.batch, (long long)p.out_channels,
           (long long)out_len);
    printf("checksum (sum of outputs): %.6f\n", checksum);

    /* The definition, directly: y[n, g*Cg_out + co, i*stride + k*dilation - padding]
     *                            += x[n, g*Cg_in + ci, i] * w[g*Cg_in + ci, co, k]          */
    const int64_t cig = p.in_channels / p.groups, cog = p.out_channels / p.groups;
    double max_err = 0;
    for (int64_t n = 0; n < p.batch; n++)
        for (int64_t c = 0; c < p.out_channels; c++)
            for (int64_t o = 0; o < out_len; o++) {
                const int64_t g = c / cog, co = c % cog;
                double want = b[c];
                for (int64_t ci = g * cig; ci < (g + 1) * cig; ci++)
                    for (int64_t k = 0; k < p.kernel_size; k++) {
                        const int64_t t = o + p.padding - k * p.dilation; /* = i * stride */
                        if (t < 0 || t % p.stride != 0 || t / p.stride >= p.in_length) continue;
                        want += (double)x[(n * p.in_channels + ci) * p.in_length + t / p.stride] *
                                w[(ci * cog + co) * p.kernel_size + k];
                    }
                const double err = fabs(want - y[(n * p.out_channels + c) * out_len + o]);
                if (!(err <= max_err)) max_err = err; /* also catches NaN */
            }
    printf("max |difference| from a direct loop: %.3g\n", max_err);
    printf("this library %s CUDA kernels (convt1d_has_cuda() = %d)\n",
           convt1d_has_cuda() ? "has" : "was built without", convt1d_has_cuda());

    free(x), free(w), free(b), free(y);
    if (!(max_err < 1e-5)) {
        fprintf(stderr, "FAILED: the result differs from the direct loop\n");
        return 1;
    }
    printf("OK\n");
    return 0;
}

/* The public CPU entry points: validation, then dispatch on the compute precision. */
#include "cpu_internal.h"

static convt1d_status make_problem(const convt1d_params *p, int64_t out_length, cpu_problem *P) {
    P->N = p->batch;
    P->Cin = p->in_channels;
    P->Cout = p->out_channels;
    P->L = p->in_length;
    P->K = p->kernel_size;
    P->s = p->stride;
    P->p = p->padding;
    P->d = p->dilation;
    P->G = p->groups;
    P->Lout = out_length;
    P->cig = p->in_channels / p->groups;
    P->cog = p->out_channels / p->groups;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_forward_cpu(const convt1d_params *p, convt1d_dtype dtype, const void *x,
                                   const void *w, const void *bias, void *y, int num_threads) {
    int64_t lout;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, x, "x", w, "w", y, "y");
    if (st != CONVT1D_SUCCESS) return st;
    cpu_problem P;
    make_problem(p, lout, &P);
    if (dtype == CONVT1D_F64) return cpu_forward_f64(&P, dtype, x, w, bias, y, num_threads);
    return cpu_forward_f32(&P, dtype, x, w, bias, y, num_threads);
}

convt1d_status convt1d_backward_input_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                          const void *grad_y, const void *w, void *grad_x,
                                          int num_threads) {
    int64_t lout;
    convt1d_status st =
        convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", w, "w", grad_x, "grad_x");
    if (st != CONVT1D_SUCCESS) return st;
    cpu_problem P;
    make_problem(p, lout, &P);
    if (dtype == CONVT1D_F64) return cpu_backward_input_f64(&P, dtype, grad_y, w, grad_x, num_threads);
    return cpu_backward_input_f32(&P, dtype, grad_y, w, grad_x, num_threads);
}

convt1d_status convt1d_backward_weight_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                           const void *grad_y, const void *x, void *grad_w,
                                           int num_threads) {
    int64_t lout;
    convt1d_status st =
        convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", x, "x", grad_w, "grad_w");
    if (st != CONVT1D_SUCCESS) return st;
    cpu_problem P;
    make_problem(p, lout, &P);
    if (dtype == CONVT1D_F64) return cpu_backward_weight_f64(&P, dtype, grad_y, x, grad_w, num_threads);
    return cpu_backward_weight_f32(&P, dtype, grad_y, x, grad_w, num_threads);
}

convt1d_status convt1d_backward_bias_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                         const void *grad_y, void *grad_b, int num_threads) {
    int64_t lout;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", grad_b, "grad_b", NULL, NULL);
    if (st != CONVT1D_SUCCESS) return st;
    cpu_problem P;
    make_problem(p, lout, &P);
    if (dtype == CONVT1D_F64) return cpu_backward_bias_f64(&P, dtype, grad_y, grad_b, num_threads);
    return cpu_backward_bias_f32(&P, dtype, grad_y, grad_b, num_threads);
}

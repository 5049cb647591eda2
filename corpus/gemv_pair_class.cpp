// corpus: GEMV, a transposed update and a row dot product over one sweep of A (s += A^T r beside q = A p, as a BiCG step makes them), float, a Matrix class (std::vector storage, operator() access) and std::vector vectors by reference, the dot product in a local, inside a hubs-and-authorities iteration on a weighted bipartite graph
// args: test=33 47 3 bench=2600 2200 550
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(static_cast<std::size_t>(rows) * cols) {}
    float& operator()(int i, int j) { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    float operator()(int i, int j) const { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    const float* data() const { return data_.data(); }

private:
    int rows_, cols_;
    std::vector<float> data_;
};

// auth += A^T hub and hub_next = A auth_prev in one pass over A (rows x cols): the
// authority of a column gathers the hub scores of its rows, the hub score of a row the
// authorities of its columns.
void hits_sweep(const Matrix& A, const std::vector<float>& hub, const std::vector<float>& auth_prev,
                std::vector<float>& auth, std::vector<float>& hub_next)
{
    const int rows = A.rows(), cols = A.cols();
    for (int i = 0; i < rows; ++i) {           // expect: GEMV in hits_sweep
        float t = 0.0f;
        for (int j = 0; j < cols; ++j) {
            auth[j] = auth[j] + hub[i] * A(i, j);
            t += A(i, j) * auth_prev[j];
        }
        hub_next[i] = t;
    }
}

int main(int argc, char** argv)
{
    int rows = argc > 1 ? std::atoi(argv[1]) : 300;
    int cols = argc > 2 ? std::atoi(argv[2]) : 250;
    int iters = argc > 3 ? std::atoi(argv[3]) : 10;
    if (rows < 2) rows = 2;
    if (cols < 2) cols = 2;
    if (iters < 1) iters = 1;

    // positive weights from a small LCG, heavier on a band, so that no sum cancels
    Matrix A(rows, cols);
    unsigned state = 2024u;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            state = state * 1664525u + 1013904223u;
            float w = static_cast<float>((state >> 20) % 64) / 64.0f;
            int d = (i * cols) / rows - j;
            A(i, j) = 0.25f + w + (d > -9 && d < 9 ? 1.5f : 0.0f);
        }

    std::vector<float> hub(rows), auth(cols), hub_next(rows), auth_prev(cols);
    for (int i = 0; i < rows; ++i)
        hub[i] = 1.0f / static_cast<float>(rows);
    for (int j = 0; j < cols; ++j)
        auth_prev[j] = static_cast<float>(1 + j % 4) / (2.5f * static_cast<float>(cols));

    // each sweep makes new authorities from the hubs and new hubs from the authorities,
    // both from the previous step; each is then scaled to sum to one
    double hub_scale = 0.0, auth_scale = 0.0;
    for (int it = 0; it < iters; ++it) {
        for (int j = 0; j < cols; ++j)
            auth[j] = 0.0f;
        hits_sweep(A, hub, auth_prev, auth, hub_next);
        float sh = 0.0f, sa = 0.0f;
        for (int i = 0; i < rows; ++i)         // expect: Reduction in main
            sh += hub_next[i];
        for (int j = 0; j < cols; ++j)         // expect: Reduction in main
            sa += auth[j];
        hub_scale = sh;
        auth_scale = sa;
        for (int i = 0; i < rows; ++i)   // expect: Map in main
            hub[i] = hub_next[i] / sh;
        for (int j = 0; j < cols; ++j)   // expect: Map in main
            auth_prev[j] = auth[j] / sa;
    }

    double wh = 0.0, top_h = 0.0;
    for (int i = 0; i < rows; ++i) {           // expect: Reduction in main
        wh += static_cast<double>(hub[i]) * (1 + i % 7);
        top_h = hub[i] > top_h ? hub[i] : top_h;
    }
    double wa = 0.0, top_a = 0.0;
    for (int j = 0; j < cols; ++j) {           // expect: Reduction in main
        wa += static_cast<double>(auth_prev[j]) * (1 + j % 5);
        top_a = auth_prev[j] > top_a ? auth_prev[j] : top_a;
    }
    std::printf("rows cols = %d %d iters = %d\n", rows, cols, iters);
    std::printf("hub scale = %.10g auth scale = %.10g\n", hub_scale, auth_scale);
    std::printf("hub weighted = %.10g largest = %.10g\n", wh * rows, top_h * rows);
    std::printf("auth weighted = %.10g largest = %.10g\n", wa * cols, top_a * cols);
    std::printf("hub[0] = %.10g auth[cols-1] = %.10g\n",
                static_cast<double>(hub[0]) * rows, static_cast<double>(auth_prev[cols - 1]) * cols);
    return 0;
}

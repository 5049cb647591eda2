// corpus: C++ image histograms: grey-level counts in a class method, and a joint 16x16 histogram of two images
// args: test=64 48 2 bench=2048 2048 400
#include <cstdio>
#include <cstdlib>
#include <vector>

class GreyImage {
public:
    GreyImage(int w, int h) : width_(w), pix_((std::size_t)w * h) {}
    unsigned char &at(int x, int y) { return pix_[(std::size_t)y * width_ + x]; }
    const unsigned char *data() const { return pix_.data(); }
    std::size_t size() const { return pix_.size(); }
    void histogram(std::vector<long> &h) const;

private:
    int width_;
    std::vector<unsigned char> pix_;
};

/* GreyImage::histogram: h[g] += number of pixels with grey level g (h has 256 bins) */
void GreyImage::histogram(std::vector<long> &h) const
{
    for (std::size_t i = 0; i < pix_.size(); i++)   // expect: Histogram in GreyImage::histogram
        h[pix_[i]]++;
}

/* joint_histogram: jh[(a[i] >> 4) * 16 + (b[i] >> 4)] += 1, 16 levels per image */
void joint_histogram(const GreyImage &a, const GreyImage &b, std::vector<int> &jh)
{
    const unsigned char *pa = a.data(), *pb = b.data();
    const int n = (int)a.size();
    for (int i = 0; i < n; i++)   // expect: Histogram in joint_histogram
        jh[(pa[i] >> 4) * 16 + (pb[i] >> 4)] += 1;
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? std::atoi(argv[1]) : 512;
    int h = argc > 2 ? std::atoi(argv[2]) : 512;
    int iters = argc > 3 ? std::atoi(argv[3]) : 1;
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (iters < 1)
        iters = 1;

    GreyImage img(w, h), ref(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            img.at(x, y) = (unsigned char)((x * x + 3 * y * x + 7 * y) & 0xff);
            ref.at(x, y) = (unsigned char)((x * 5 + y * 11 + (x ^ y)) & 0xff);
        }

    std::vector<long> hist(256, 0);
    std::vector<int> joint(256, 0);
    for (int it = 0; it < iters; it++) {
        img.histogram(hist);
        joint_histogram(img, ref, joint);
    }

    long weighted = 0;
    for (int g = 0; g < 256; g++)   // expect: Reduction in main
        weighted += hist[g] * g;
    long diag = 0;
    for (int k = 0; k < 16; k++)   // expect: Reduction in main
        diag += joint[k * 17];
    std::printf("hist[0] %ld hist[128] %ld hist[255] %ld weighted %ld\n", hist[0], hist[128], hist[255],
                weighted);
    std::printf("joint diagonal %ld joint[0] %d joint[255] %d\n", diag, joint[0], joint[255]);
    return 0;
}

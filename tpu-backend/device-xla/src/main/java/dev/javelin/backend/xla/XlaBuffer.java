package dev.javelin.backend.xla;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;

/** A PJRT buffer resident on the device; closing destroys it (closing twice is a no-op). */
final class XlaBuffer extends PjrtHandle implements DeviceBuffer {
  private final Shape shape;
  private final DType dtype;

  XlaBuffer(XlaDevice device, long handle, Shape shape, DType dtype) {
    super(device, handle);
    this.shape = shape;
    this.dtype = dtype;
  }

  @Override
  public Shape shape() {
    return shape;
  }

  @Override
  public DType dtype() {
    return dtype;
  }

  XlaDevice device() {
    return device;
  }

  @Override
  String what() {
    return "buffer " + dtype.mlirName() + shape;
  }

  @Override
  void destroy(long h) {
    PjrtNative.bufferDestroy(device.api(), h);
  }

  /** Where the data lives on the device; equal addresses mean the same memory. */
  long deviceAddress() {
    return PjrtNative.bufferDeviceAddress(device.api(), handle());
  }

  /** The PJRT id of the chip holding the buffer. */
  int chip() {
    return device.client().idOf(PjrtNative.bufferDevice(device.api(), handle()));
  }

  /** Bytes the buffer occupies on the device, as the plugin reports them. */
  long onDeviceBytes() {
    return PjrtNative.bufferOnDeviceSize(device.api(), handle());
  }

  @Override
  public Tensor toHost() {
    long bytes = shape.size() * dtype.byteSize();
    if (dtype == DType.BF16) {
      short[] bits = new short[shape.intSize()];
      PjrtNative.bufferToHost(device.api(), handle(), bits, bytes);
      device.countDownload(bytes);
      return new Tensor.BF16(shape, Bf16.fromBits(bits));
    }
    Tensor t = Tensor.zeros(dtype, shape);
    Object array;
    if (t instanceof Tensor.F32 f) {
      array = f.data();
    } else if (t instanceof Tensor.F64 d) {
      array = d.data();
    } else if (t instanceof Tensor.I32 i) {
      array = i.data();
    } else {
      array = ((Tensor.Pred) t).data();
    }
    PjrtNative.bufferToHost(device.api(), handle(), array, bytes);
    device.countDownload(bytes);
    return t;
  }
}
